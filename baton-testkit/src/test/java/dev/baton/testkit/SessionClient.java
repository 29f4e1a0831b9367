package dev.baton.testkit;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;

/** A plain ZooKeeper client that remembers the session events it saw, so that a test can wait for one. */
final class SessionClient implements Watcher, AutoCloseable {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final int CLOSE_TIMEOUT_MILLIS = 5000;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final List<KeeperState> states = new ArrayList<>();
  private final ZooKeeper zooKeeper;

  private SessionClient(String connectString, Duration sessionTimeout) throws IOException {
    zooKeeper = new ZooKeeper(connectString, Math.toIntExact(sessionTimeout.toMillis()), this);
  }

  /** Connects and waits (up to 10 s) until the session is established. */
  static SessionClient connect(String connectString, Duration sessionTimeout)
      throws IOException, InterruptedException {
    SessionClient client = new SessionClient(connectString, sessionTimeout);
    try {
      client.awaitState(KeeperState.SyncConnected, 1, CONNECT_TIMEOUT);
    } catch (AssertionError e) {
      client.close();
      throw e;
    }
    return client;
  }

  ZooKeeper zooKeeper() {
    return zooKeeper;
  }

  @Override
  public void process(WatchedEvent event) {
    if (event.getType() != Event.EventType.None) {
      return;
    }
    lock.lock();
    try {
      states.add(event.getState());
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Waits until the client has seen {@code state} {@code times} times in all. */
  void awaitState(KeeperState state, int times, Duration timeout) throws InterruptedException {
    long remaining = timeout.toNanos();
    lock.lock();
    try {
      while (states.stream().filter(state::equals).count() < times) {
        if (remaining <= 0) {
          throw new AssertionError("The client did not see " + state + " " + times + " time(s) within "
              + timeout.toMillis() + " ms; it saw " + states);
        }
        remaining = changed.awaitNanos(remaining);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Closes the session and waits (up to 5 s) until the client's threads have ended. */
  @Override
  public void close() {
    try {
      zooKeeper.close(CLOSE_TIMEOUT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
