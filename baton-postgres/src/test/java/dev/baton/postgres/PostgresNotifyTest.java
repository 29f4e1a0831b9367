package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.PostgresServerExtension;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * A release notifies the key's waiters, and only when there are some: a waiter is woken at once, long before it would
 * look again by itself; a release that no one waits for sends nothing.
 */
class PostgresNotifyTest {
  private static final Duration LONG = Duration.ofMinutes(1);
  private static final String MARKER = "marker";

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Test
  void aReleaseWakesItsWaiterWithoutWaitingForTheFallback() throws Exception {
    LockOptions options = LockOptions.builder().ttl(LONG).build();
    try (LockClient holder = PostgresLockClient.connect(postgres.uri());
        LockClient waiter = PostgresLockClient.builder().address(postgres.uri()).fallbackWait(LONG).connect()) {
      Lease held = holder.lock("woken", options).acquire(Duration.ofSeconds(5));
      BackgroundCall<Lease> waiting = BackgroundCall.start("waiter",
          () -> waiter.lock("woken", options).acquire(LONG.multipliedBy(2)));
      waiting.awaitBlocked();

      held.close();

      try (Lease next = waiting.result(Duration.ofSeconds(10))) {
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
      }
    }
  }

  @Test
  void aReleaseThatNoOneWaitsForNotifiesNoOne() throws Exception {
    try (LockClient client = PostgresLockClient.connect(postgres.uri());
        Connection listener = TestDatabase.connect(postgres.server())) {
      try (Statement listen = listener.createStatement()) {
        listen.execute("LISTEN " + PostgresLockClient.DEFAULT_TABLE);
      }
      client.lock("alone").acquire(Duration.ofSeconds(5)).close();
      TestDatabase.update(postgres.server(), "NOTIFY " + PostgresLockClient.DEFAULT_TABLE + ", '" + MARKER + "'");

      assertThat(notificationsUntilTheMarker(listener)).as("notifications before the marker").isEmpty();
    }
  }

  /** The keys notified before the marker, which comes after them in commit order. */
  private static List<String> notificationsUntilTheMarker(Connection listener) throws Exception {
    List<String> keys = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      PGNotification[] received = listener.unwrap(PGConnection.class).getNotifications(1000);
      for (PGNotification notification : received == null ? new PGNotification[0] : received) {
        if (notification.getParameter().equals(MARKER)) {
          return keys;
        }
        keys.add(notification.getParameter());
      }
    }
    throw new AssertionError("The marker was not notified within 10 s; notified before: " + keys);
  }
}
