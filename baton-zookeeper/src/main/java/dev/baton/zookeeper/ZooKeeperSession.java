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
import org.apache.zookeeper.client.ZKClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's one ZooKeeper session, and its replacement when it expires. Holds the handle, knows
 * whether it is connected, and tells the backend when a session (with every ephemeral node of it) is
 * gone.
 */
final class ZooKeeperSession implements Watcher {
  private static final Logger log = LoggerFactory.getLogger(ZooKeeperSession.class);
  /** How long closing a session waits for the server's answer before it leaves the session to expire. */
  private static final Duration CLOSE_REQUEST_TIMEOUT = Duration.ofSeconds(2);

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
   * @throws BackendUnavailableException if no server answered within {@code connectTimeout}; nothing is left running
   */
  static ZooKeeperSession open(String connectString, Duration sessionTimeout, Duration connectTimeout, String digest,
      Runnable onExpired) {
    ZooKeeperSession session = new ZooKeeperSession(connectString, sessionTimeout, digest, onExpired);
    String failure;
    try {
      failure = session.awaitConnected(connectTimeout);
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
  private String awaitConnected(Duration connectTimeout) throws InterruptedException {
    lock.lock();
    try {
      handle = newHandle();
      long nanos = connectTimeout.toNanos();
      while (!connected && !authFailed && nanos > 0) {
        nanos = changed.awaitNanos(nanos);
      }
      if (authFailed) {
        return "authentication failed; check the digest credentials";
      }
      return connected ? null : "no server answered within " + connectTimeout.toMillis() + " ms (connectTimeout);"
          + " check that ZooKeeper runs there and answers, or allow it longer with connectTimeout";
    } finally {
      lock.unlock();
    }
  }

  private ZooKeeper newHandle() {
    try {
      ZooKeeper zk = new ZooKeeper(connectString, (int) sessionTimeout.toMillis(), this, clientConfig());
      if (digest != null) {
        zk.addAuthInfo("digest", digest.getBytes(StandardCharsets.UTF_8));
      }
      return zk;
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalArgumentException("The ZooKeeper connect string '" + connectString + "' is not usable: "
          + e.getMessage() + ". Use host:port[,host:port...][/chroot].", e);
    }
  }

  /**
   * The handle's settings: a bound on the synchronous requests the client makes itself, of which the close request
   * is the only one here (every call of the backend is asynchronous and bounded by its own timeout). Without it,
   * closing a session to a server that never answers would wait for the whole session timeout.
   */
  private static ZKClientConfig clientConfig() {
    ZKClientConfig config = new ZKClientConfig();
    config.setProperty(ZKClientConfig.ZOOKEEPER_REQUEST_TIMEOUT, Long.toString(CLOSE_REQUEST_TIMEOUT.toMillis()));
    return config;
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
   * Ends the session: the server deletes its ephemeral nodes at once. The close request waits at most
   * {@link #CLOSE_REQUEST_TIMEOUT} for its answer: a server that accepted the connection but never answers, or a
   * session that is not connected now, is then left for the server to expire.
   */
  void close() {
    ZooKeeper toClose;
    lock.lock();
    try {
      closed = true;
      toClose = handle;
    } finally {
      lock.unlock();
    }
    closeQuietly(toClose);
  }

  private static void closeQuietly(ZooKeeper zk) {
    try {
      zk.close(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
