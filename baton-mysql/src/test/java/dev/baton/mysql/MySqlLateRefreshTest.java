package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.testkit.MariaDbServerExtension;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A waiter's renewal of its own entry that writes after the entry expired: {@code refresh.sql} finds the entry live by
 * the time its statement began, then waits, here for a row lock on the entry that another session holds (on a Galera
 * node that lags, for the cluster), while the entry expires and another client, counting it gone, takes the lock. The
 * waiter does not count on the entry it renewed too late ({@code MySqlAttempt.cameInTime}): it queues again, behind
 * that client, which holds alone. Counting on it, the waiter took the lock while the other client held it.
 */
class MySqlLateRefreshTest {
  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Test
  @Timeout(60)
  void aWaitersRenewalThatWritesAfterItsEntryExpiredIsNotCountedOn() throws Exception {
    String key = "late-refresh";
    try (LockClient first = client(); LockClient second = client(); LockClient third = client();
        Connection rowLock = TestDatabase.connect(mariadb.server())) {
      Lease holding = first.lock(key).acquire(PROMPTLY);
      // A waiting ttl of 3 s: the waiter renews its entry when it has less than 2 s left, within a second.
      CompletableFuture<Lease> waiting = second.lock(key)
          .acquireAsync(LockOptions.builder().ttl(Duration.ofSeconds(3)).waitTime(Duration.ofSeconds(60)).build());
      await().atMost(PROMPTLY).until(() -> liveEntries(key) == 2);
      rowLock.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED); // the row alone, no gap after it
      rowLock.setAutoCommit(false);
      try (PreparedStatement lock = rowLock.prepareStatement(
          "SELECT entry_id FROM baton_locks WHERE lock_key = ? AND entry_id > ? FOR UPDATE")) {
        lock.setBytes(1, key.getBytes(StandardCharsets.UTF_8));
        lock.setLong(2, holding.fencingToken());
        try (ResultSet row = lock.executeQuery()) {
          assertThat(row.next()).as("the waiter's entry").isTrue();
        }
      }
      await().atMost(PROMPTLY).until(() -> lockWaits() == 1); // the waiter's renewal, held up
      holding.close();
      await().atMost(PROMPTLY).until(() -> liveEntries(key) == 0); // the waiter's entry expired meanwhile
      Lease taken = third.lock(key).tryAcquire().orElseThrow();
      rowLock.rollback(); // the renewal writes now

      await().during(Duration.ofSeconds(2)).atMost(PROMPTLY).until(() -> !waiting.isDone() && taken.isHeld());
      long held = taken.fencingToken();
      taken.close();
      try (Lease next = waiting.get(30, TimeUnit.SECONDS)) {
        assertThat(next.fencingToken()).isGreaterThan(held);
      }
    }
  }

  /** A client whose sweep of expired entries does not run during the test, to take the waiter's entry first. */
  private static LockClient client() {
    return MySqlLockClient.builder().address(mariadb.uri()).sweepEvery(Duration.ofMinutes(10)).connect();
  }

  /** The key's entries that have not expired, read as an operator would, without locks. */
  private static long liveEntries(String key) {
    return TestDatabase.numberForKey(mariadb.server(),
        "SELECT count(*) FROM baton_locks WHERE lock_key = ? AND expires_at >= UTC_TIMESTAMP(6)", key);
  }

  /** The server's transactions that wait for a row lock. */
  private static long lockWaits() throws SQLException {
    try (Connection connection = TestDatabase.connect(mariadb.server());
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(
            "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'")) {
      row.next();
      return row.getLong(1);
    }
  }
}
