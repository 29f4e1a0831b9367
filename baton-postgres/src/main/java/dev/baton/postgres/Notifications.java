package dev.baton.postgres;

import dev.baton.jdbc.Connections;
import dev.baton.jdbc.PooledConnections;
import dev.baton.spi.WakeUp;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's one {@code LISTEN} connection: a release, an abandoned wait or the removal of an expired entry sends
 * {@code pg_notify(channel, key)} in its transaction, and this wakes the client's waiters of that key. The connection
 * is the client's own, never a pooled one borrowed for a call. While it is down (and once it is back, as a
 * notification may have been missed), every waiter is woken; the attempts' bounded waits cover the rest.
 *
 * <p>The same connection listens, from the first lease that wants to hear them until the client closes, on the client's
 * own channel for requests to release its entries ({@link #receive}), whose payloads go to a receiver. The reader
 * thread sends that {@code LISTEN} itself, between two polls: a statement from another thread would wait for the poll
 * under way to end (the driver runs one call at a time on a connection). So that it need not wait for the poll's
 * end either, a notification on a channel of this connection's alone (its wake channel) ends the poll at once.
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
  /** The channels whose payloads go to a receiver: the client's channel for requests to release. */
  private final Map<String, Consumer<String>> receivers = new ConcurrentHashMap<>();
  /** The receivers' channels the reader has still to listen on, each with what completes once it listens. */
  private final Map<String, CompletableFuture<Void>> toListen = new ConcurrentHashMap<>();
  /** A channel no other connection listens on, on which a notification ends the reader's poll. */
  private final String wakeChannel = "baton_wake_" + UUID.randomUUID().toString().replace("-", "");
  private final Duration timeout;
  private final CountDownLatch closed = new CountDownLatch(1);
  private final Thread reader;
  private volatile Connection connection;

  private Notifications(Connections connections, String channel, Duration timeout) {
    this.connections = connections;
    this.channel = channel;
    this.timeout = timeout;
    this.reader = new Thread(this::readAll, "baton-postgres-notifications");
    reader.setDaemon(true);
  }

  /**
   * Listens on {@code channel} with a connection of its own, or fails if it cannot; {@code timeout} bounds a
   * {@link #receive}.
   */
  static Notifications listen(Connections connections, String channel, Duration timeout) throws SQLException {
    Notifications notifications = new Notifications(connections, channel, timeout);
    notifications.connection = notifications.listening();
    notifications.reader.start();
    return notifications;
  }

  /**
   * Hands the payload of every notification on {@code receiverChannel} to {@code receiver} until the client closes,
   * listening again after a reconnect; returns once the connection listens: a round trip to end the reader's poll,
   * and the reader's {@code LISTEN}.
   *
   * @throws SQLException if the connection could not listen within the timeout; the receiver is kept, and listens
   *     once the connection is back; a later call tries again
   */
  void receive(String receiverChannel, Consumer<String> receiver) throws SQLException {
    receivers.put(receiverChannel, receiver);
    CompletableFuture<Void> listened = toListen.computeIfAbsent(receiverChannel, c -> new CompletableFuture<>());
    if (connection != null) {
      endPoll();
    }
    try {
      listened.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new SQLException("The connection for notifications did not listen on channel " + receiverChannel
          + " within " + timeout + ": it is down, and listens once it is back");
    } catch (ExecutionException e) {
      throw new SQLException("Listening on channel " + receiverChannel + " failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("Interrupted while listening on channel " + receiverChannel, e);
    }
  }

  /** Ends the reader's poll under way: a notification on the wake channel, sent on a pooled connection. */
  private void endPoll() throws SQLException {
    Connection borrowed = connections.borrow();
    boolean broken = true;
    try (PreparedStatement wake = borrowed.prepareStatement("SELECT pg_notify(?, '')")) {
      wake.setString(1, wakeChannel);
      wake.execute();
      broken = false;
    } finally {
      connections.giveBack(borrowed, broken);
    }
  }

  /**
   * Wakes {@code wakeUp} on every notification for {@code key} until {@link #unregister}. The add runs inside the
   * map's compute, as the removal of the key's last waiter does: added outside it, to a set that an unregister of
   * another waiter of the key (a reader and a writer of one client, two permits) emptied and dropped from the map at
   * the same moment, it would never be woken, and would wait for its fallback.
   */
  void register(String key, WakeUp wakeUp) {
    waiters.compute(key, (k, set) -> {
      Set<WakeUp> registered = set != null ? set : ConcurrentHashMap.newKeySet();
      registered.add(wakeUp);
      return registered;
    });
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
        listenAsAsked(current);
        PGNotification[] received = current.unwrap(PGConnection.class).getNotifications(POLL_MILLIS);
        if (received != null) {
          for (PGNotification notification : received) {
            deliver(notification);
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
    Connection fresh = listening();
    connection = fresh;
    wakeAll(); // a notification may have come while no connection listened
    return fresh;
  }

  /** A new connection that listens on the client's channels: the table's, the wake channel, every receiver's. */
  private Connection listening() throws SQLException {
    Connection fresh = connections.openListener();
    try {
      listen(fresh, channel);
      listen(fresh, wakeChannel);
      for (String receiverChannel : receivers.keySet()) {
        listen(fresh, receiverChannel);
      }
    } catch (SQLException e) {
      PooledConnections.closeQuietly(fresh);
      throw e;
    }
    return fresh;
  }

  /** Listens on the receivers' channels that {@link #receive} asked for since the last poll, and says so. */
  private void listenAsAsked(Connection current) throws SQLException {
    for (Map.Entry<String, CompletableFuture<Void>> asked : toListen.entrySet()) {
      listen(current, asked.getKey());
      toListen.remove(asked.getKey(), asked.getValue());
      asked.getValue().complete(null);
    }
  }

  private static void listen(Connection connection, String channel) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("LISTEN \"" + channel + "\"");
    }
  }

  private void deliver(PGNotification notification) {
    if (notification.getName().equals(wakeChannel)) {
      return;
    }
    Consumer<String> receiver = receivers.get(notification.getName());
    if (receiver != null) {
      receiver.accept(notification.getParameter());
    } else {
      wake(notification.getParameter());
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
    toListen.values().forEach(asked -> asked.completeExceptionally(new SQLException("The client was closed")));
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
