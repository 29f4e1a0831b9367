package dev.baton.zookeeper;

import dev.baton.BackendUnavailableException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's one ZooKeeper session, and its replacement when it expires. Holds the handle, knows
 * whether it is connected, and tells the backend when a session (with every ephemeral node of it) is
 * gone.
 */
final class ZooKeeperSession implements Watcher {
  private static final Logger log = LoggerFactory.getLogger(ZooKeeperSession.class);

  private final String connectString;
  private final Duration sessionTimeout;
  private final String digest;
  private final Runnable onExpired;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private ZooKeeper handle;
  private boolean connected;
  private boolean authFailed;
  private boolean closed;
  /** The session timeout the server granted last; the one asked for until a server has granted one. Written under lock. */
  private volatile Duration timeout;

  private ZooKeeperSession(String connectString, Duration sessionTimeout, String digest, Runnable onExpired) {
    this.connectString = connectString;
    this.sessionTimeout = sessionTimeout;
    this.digest = digest;
    this.onExpired = onExpired;
    this.timeout = sessionTimeout;
  }

  /**
   * Opens a session and waits until it is connected.
   *
   * @param digest {@code user:password} for digest authentication, or null
   * @throws BackendUnavailableException if no server answered within {@code connectionTimeout}; nothing is left running
   */
  static ZooKeeperSession open(String connectString, Duration sessionTimeout, Duration connectionTimeout, String digest,
      Runnable onExpired) {
    ZooKeeperSession session = new ZooKeeperSession(connectString, sessionTimeout, digest, onExpired);
    String failure;
    try {
      failure = session.awaitConnected(connectionTimeout);
    } catch (InterruptedException e) {
      session.close();
      throw ZkErrors.interrupted("Connecting to " + connectString, e);
    }
    if (failure != null) {
      session.close();
      throw new BackendUnavailableException("Cannot connect to ZooKeeper at " + connectString + ": " + failure + ".");
    }
    return session;
  }

  /** Starts the first handle and waits for its connection: null once connected, else why not. */
  private String awaitConnected(Duration connectionTimeout) throws InterruptedException {
    lock.lock();
    try {
      handle = newHandle();
      long nanos = connectionTimeout.toNanos();
      while (!connected && !authFailed && nanos > 0) {
        nanos = changed.awaitNanos(nanos);
      }
      if (authFailed) {
        return "authentication failed; check the digest credentials";
      }
      return connected ? null : "no server answered within " + connectionTimeout.toMillis() + " ms (connectionTimeout);"
          + " check that ZooKeeper runs there and answers, or allow it longer with connectionTimeout";
    } finally {
      lock.unlock();
    }
  }

  private ZooKeeper newHandle() {
    try {
      ZooKeeper zk = new ZooKeeper(connectString, (int) sessionTimeout.toMillis(), this);
      if (digest != null) {
        zk.addAuthInfo("digest", digest.getBytes(StandardCharsets.UTF_8));
      }
      return zk;
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalArgumentException("The ZooKeeper connect string '" + connectString + "' is not usable: "
          + e.getMessage() + ". Use host:port[,host:port...][/chroot].", e);
    }
  }

  /** The connected handle. */
  ZooKeeper connected() {
    lock.lock();
    try {
      if (closed) {
        throw new BackendUnavailableException("The ZooKeeper session to " + connectString + " is closed.");
      }
      if (!connected) {
        throw new BackendUnavailableException("Not connected to ZooKeeper at " + connectString + " right now.");
      }
      return handle;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The session timeout the server granted last, never zero: a new handle knows none until it connects (after an
   * expiry, say), and the next server grants the same within the same limits. Until the first connection, the one
   * asked for.
   */
  Duration timeout() {
    return timeout;
  }

  @Override
  public void process(WatchedEvent event) {
    if (event.getType() != Event.EventType.None) {
      return;
    }
    boolean expired = false;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      switch (event.getState()) {
        case SyncConnected, ConnectedReadOnly -> {
          connected = true;
          int granted = handle.getSessionTimeout();
          if (granted > 0) {
            timeout = Duration.ofMillis(granted);
          }
        }
        case Disconnected -> connected = false;
        case AuthFailed -> authFailed = true;
        case Expired -> {
          // An expired handle has stopped by itself (and this runs on its event thread): just replace it.
          connected = false;
          expired = true;
          handle = newHandle();
        }
        default -> log.debug("ZooKeeper session event {}", event);
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    if (expired) {
      log.warn("ZooKeeper session to {} expired; its locks are lost, a new session is opened", connectString);
      onExpired.run();
    }
  }

  /**
   * Ends the session: the server deletes its ephemeral nodes at once. A session that is not connected now is only
   * {@link #stop stopped}: the server, if it ever heard of it, expires it by itself, and telling it would wait for
   * an answer that may not come.
   */
  void close() {
    ZooKeeper toClose;
    boolean wasConnected;
    lock.lock();
    try {
      closed = true;
      toClose = handle;
      wasConnected = connected;
    } finally {
      lock.unlock();
    }
    if (wasConnected) {
      closeQuietly(toClose);
    } else {
      stop(toClose);
    }
  }

  /**
   * Stops talking to the server without ending the session, as a crashed process would: the server
   * deletes the ephemeral nodes only when the session times out.
   */
  void crash() {
    ZooKeeper toStop;
    lock.lock();
    try {
      closed = true;
      toStop = handle;
    } finally {
      lock.unlock();
    }
    stop(toStop);
  }

  /**
   * Stops a handle's threads without a closeSession request. {@code ZooKeeper.close()} sends one and waits for its
   * answer, and a server that accepted the connection but never answers is given up on only after the client's own
   * connect timeout, the whole session timeout. Injecting an expiry (ZooKeeper's {@code Testable} hook) stops both
   * threads at once; the close that follows then only waits, bounded, for them to end.
   */
  private static void stop(ZooKeeper zk) {
    zk.getTestable().injectSessionExpiration();
    closeQuietly(zk);
  }

  private static void closeQuietly(ZooKeeper zk) {
    try {
      zk.close(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
