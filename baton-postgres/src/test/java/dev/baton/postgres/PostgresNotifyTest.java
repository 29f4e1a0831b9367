package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
 * look again by itself, even when its try and the release overlap; a release that no one waits for sends nothing, even
 * beside another holder.
 */
class PostgresNotifyTest {
  private static final Duration LONG = Duration.ofMinutes(1);
  private static final String MARKER = "marker";
  private static final LockOptions OPTIONS = LockOptions.builder().ttl(LONG).build();

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Test
  void aReleaseWakesItsWaiterWithoutWaitingForTheFallback() throws Exception {
    try (LockClient holder = PostgresLockClient.connect(postgres.uri()); LockClient waiter = patientWaiter()) {
      Lease held = holder.lock("woken", OPTIONS).acquire(Duration.ofSeconds(5));
      BackgroundCall<Lease> waiting = BackgroundCall.start("waiter",
          () -> waiter.lock("woken", OPTIONS).acquire(LONG.multipliedBy(2)));
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
      listen(listener);
      client.lock("alone").acquire(Duration.ofSeconds(5)).close();
      TestDatabase.update(postgres.server(), "NOTIFY " + PostgresLockClient.DEFAULT_TABLE + ", '" + MARKER + "'");

      assertThat(notificationsUntilTheMarker(listener)).as("notifications before the marker").isEmpty();
    }
  }

  /** Another holder of the key, which waits for nothing, is not a waiter: the release beside it notifies no one. */
  @Test
  void aReleaseBesideAnotherHolderThatNoOneWaitsForNotifiesNoOne() throws Exception {
    try (LockClient first = PostgresLockClient.connect(postgres.uri());
        LockClient second = PostgresLockClient.connect(postgres.uri());
        Connection listener = TestDatabase.connect(postgres.server())) {
      listen(listener);
      try (Lease staying = second.readWriteLock("shared").readLock().acquire(Duration.ofSeconds(5))) {
        first.readWriteLock("shared").readLock().acquire(Duration.ofSeconds(5)).close();
        TestDatabase.update(postgres.server(), "NOTIFY " + PostgresLockClient.DEFAULT_TABLE + ", '" + MARKER + "'");

        assertThat(notificationsUntilTheMarker(listener)).as("notifications before the marker").isEmpty();
      }
    }
  }

  /**
   * A waiter marks the entry it waits for in its try's transaction and adds its own entry after the release has begun:
   * the release, waiting for the mark, sees it and notifies, though the waiter's entry came too late for it to see.
   */
  @Test
  void aReleaseNotifiesAWaiterWhoseMarkItWaitedFor() throws Exception {
    try (LockClient client = PostgresLockClient.connect(postgres.uri());
        Connection listener = TestDatabase.connect(postgres.server())) {
      listen(listener);
      Lease held = client.lock("marked").acquire(Duration.ofSeconds(5));
      BackgroundCall<Void> release;
      try (Connection waiter = TestDatabase.inOpenTransaction(postgres.server(),
          "UPDATE baton_locks SET contended = true WHERE lock_key = 'marked'")) {
        release = BackgroundCall.start("release", () -> {
          held.close();
          return null;
        });
        awaitAClientStatementWaitingForARowLock();
        try (Statement insert = waiter.createStatement()) {
          insert.executeUpdate("INSERT INTO baton_locks (lock_key, entry_id, owner_id, holder, mode, capacity,"
              + " expires_at) VALUES ('marked', nextval('baton_locks_fencing'), 'waiter', 'owner=waiter',"
              + " 'EXCLUSIVE', 1, clock_timestamp() + interval '1 minute')");
        }
        waiter.commit();
      }
      release.result(Duration.ofSeconds(10));
      TestDatabase.update(postgres.server(), "NOTIFY " + PostgresLockClient.DEFAULT_TABLE + ", '" + MARKER + "'");

      assertThat(notificationsUntilTheMarker(listener)).as("notifications before the marker").containsExactly("marked");
    }
  }

  /**
   * A release deletes the holder's entry while a waiter, which read it, marks it: the mark finds it gone, and the
   * waiter looks again at once rather than wait for a notification that the release, having seen no mark, never sends.
   */
  @Test
  void aWaiterWhoseMarkFindsTheEntryReleasedLooksAgainAtOnce() throws Exception {
    try (LockClient holder = PostgresLockClient.connect(postgres.uri()); LockClient waiter = patientWaiter()) {
      Lease held = holder.lock("raced", OPTIONS).acquire(Duration.ofSeconds(5));
      BackgroundCall<Lease> waiting;
      try (Connection release = TestDatabase.inOpenTransaction(postgres.server(),
          "DELETE FROM baton_locks WHERE lock_key = 'raced'")) {
        waiting = BackgroundCall.start("waiter", () -> waiter.lock("raced", OPTIONS).acquire(LONG.multipliedBy(2)));
        awaitAClientStatementWaitingForARowLock();
        release.commit();
      }

      try (Lease next = waiting.result(Duration.ofSeconds(10))) {
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
      }
    }
  }

  /** A client whose waiters look again by themselves only after a minute: long after any test's bound. */
  private static LockClient patientWaiter() {
    return PostgresLockClient.builder().address(postgres.uri()).fallbackWait(LONG).connect();
  }

  private static void listen(Connection listener) throws Exception {
    try (Statement listen = listener.createStatement()) {
      listen.execute("LISTEN " + PostgresLockClient.DEFAULT_TABLE);
    }
  }

  private static void awaitAClientStatementWaitingForARowLock() {
    await("a statement of the client waiting for a row lock").atMost(Duration.ofSeconds(10))
        .until(() -> TestDatabase.number(postgres.server(), "SELECT count(*) FROM pg_stat_activity"
            + " WHERE application_name = 'baton' AND wait_event_type = 'Lock' AND wait_event <> 'advisory'") == 1);
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
