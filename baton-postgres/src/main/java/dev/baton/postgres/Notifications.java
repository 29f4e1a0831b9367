package dev.baton.postgres;

import dev.baton.spi.WakeUp;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's one {@code LISTEN} connection: a release, an abandoned wait or the removal of a lapsed entry sends
 * {@code pg_notify(channel, key)} in its transaction, and this wakes the client's waiters of that key. The connection
 * is the client's own, never a pooled one borrowed for a call. While it is down (and once it is back, as a
 * notification may have been missed), every waiter is woken; the attempts' bounded waits cover the rest.
 *
 * <p>Threads: attempts register and unregister from any thread; one daemon thread reads notifications.
 */
final class Notifications implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Notifications.class);
  private static final int POLL_MILLIS = 500;
  private static final Duration RECONNECT_DELAY = Duration.ofMillis(200);

  private final Connections connections;
  private final String channel;
  private final Map<String, Set<WakeUp>> waiters = new ConcurrentHashMap<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private final Thread reader;
  private volatile Connection connection;

  private Notifications(Connections connections, String channel, Connection first) {
    this.connections = connections;
    this.channel = channel;
    this.connection = first;
    this.reader = new Thread(this::readAll, "baton-postgres-notifications");
    reader.setDaemon(true);
  }

  /** Listens on {@code channel} with a connection of its own, or fails if it cannot. */
  static Notifications listen(Connections connections, String channel) throws SQLException {
    Connection first = connections.openListener();
    try {
      listen(first, channel);
    } catch (SQLException e) {
      PooledConnections.closeQuietly(first);
      throw e;
    }
    Notifications notifications = new Notifications(connections, channel, first);
    notifications.reader.start();
    return notifications;
  }

  /** Wakes {@code wakeUp} on every notification for {@code key} until {@link #unregister}. */
  void register(String key, WakeUp wakeUp) {
    waiters.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(wakeUp);
  }

  void unregister(String key, WakeUp wakeUp) {
    waiters.computeIfPresent(key, (k, set) -> set.remove(wakeUp) && set.isEmpty() ? null : set);
  }

  private void readAll() {
    while (closed.getCount() > 0) {
      Connection current = connection;
      try {
        if (current == null) {
          current = reconnect();
        }
        PGNotification[] received = current.unwrap(PGConnection.class).getNotifications(POLL_MILLIS);
        if (received != null) {
          for (PGNotification notification : received) {
            wake(notification.getParameter());
          }
        }
      } catch (SQLException e) {
        if (closed.getCount() > 0) {
          log.debug("Notifications on channel {} are down; waiters retry on their own until they are back", channel, e);
        }
        if (current != null) {
          PooledConnections.closeQuietly(current);
        }
        connection = null;
        wakeAll();
        pause();
      }
    }
  }

  private Connection reconnect() throws SQLException {
    Connection fresh = connections.openListener();
    try {
      listen(fresh, channel);
    } catch (SQLException e) {
      PooledConnections.closeQuietly(fresh);
      throw e;
    }
    connection = fresh;
    wakeAll(); // a notification may have come while no connection listened
    return fresh;
  }

  private static void listen(Connection connection, String channel) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("LISTEN \"" + channel + "\"");
    }
  }

  private void wake(String key) {
    Set<WakeUp> set = waiters.get(key);
    if (set != null) {
      set.forEach(WakeUp::signal);
    }
  }

  private void wakeAll() {
    waiters.values().forEach(set -> set.forEach(WakeUp::signal));
  }

  private void pause() {
    try {
      closed.await(RECONNECT_DELAY.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed.countDown();
    }
  }

  @Override
  public void close() {
    closed.countDown();
    Connection current = connection;
    if (current != null) {
      PooledConnections.closeQuietly(current); // ends the reader's wait for notifications at once
    }
    try {
      reader.join(POLL_MILLIS * 4L);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    current = connection;
    if (current != null) {
      PooledConnections.closeQuietly(current); // opened by a reconnect racing with the close
    }
  }
}
