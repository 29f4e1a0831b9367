package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.PostgresServerExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The first try's one-round-trip claim of a key without entries holds the key's advisory lock until its insert
 * commits, and reads the key after the lock is granted: an entry committed by the transaction that held the lock
 * before it is seen, and the claim adds nothing. Were the claim's read to come from before the lock was granted, or
 * the lock to end before the insert, two claims could both hold.
 */
class PostgresClaimTest {
  private static final String KEY = "claimed";

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  /**
   * What the claim relies on to hold the lock until its insert commits: the driver sends the statements of one
   * prepared statement together, before one Sync, and the server runs them in one implicit transaction.
   */
  @Test
  void statementsSentTogetherInAutoCommitModeShareOneTransaction() throws Exception {
    try (Connection connection = TestDatabase.connect(postgres.server());
        PreparedStatement statements = connection.prepareStatement("SELECT pg_advisory_xact_lock(?, 1);"
            + " SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted")) {
      statements.setInt(1, 20);
      statements.execute();
      assertThat(statements.getMoreResults()).isTrue();
      try (ResultSet locks = statements.getResultSet()) {
        locks.next();
        assertThat(locks.getLong(1)).as("advisory locks held by the second statement").isEqualTo(1);
      }
    }
  }

  /**
   * The claim takes only a key without any entry; an expired one, a crashed holder's, sends the acquire on to the
   * transaction of several statements, which deletes it and holds.
   */
  @Test
  void anAcquireClearsTheExpiredEntriesOfTheKeyItTakes() throws Exception {
    try (LockClient client = PostgresLockClient.connect(postgres.uri())) {
      addExpiredEntry("expired");

      try (Lease lease = client.lock("expired").acquire(Duration.ofSeconds(5))) {
        assertThat(entries("expired", "crashed")).as("the crashed holder's expired entry").isZero();
      }
      assertThat(entries("expired", "%")).as("entries of the key after the release").isZero();
    }
  }

  /** A single try, which writes nothing unless it holds, holds a key whose only entry expired. */
  @Test
  void aTryOfAKeyWhoseOnlyEntryExpiredHoldsIt() throws Exception {
    try (LockClient client = PostgresLockClient.connect(postgres.uri())) {
      addExpiredEntry("expired-try");

      try (Lease lease = client.lock("expired-try").tryAcquire().orElseThrow()) {
        assertThat(entries("expired-try", "%")).as("entries of the key while held").isOne();
      }
    }
  }

  private static void addExpiredEntry(String key) {
    TestDatabase.update(postgres.server(), "INSERT INTO baton_locks (lock_key, entry_id, owner_id, holder, mode,"
        + " capacity, expires_at) VALUES (" + TestDatabase.literal(key) + ", nextval('baton_locks_fencing'),"
        + " 'crashed', 'owner=crashed', 'EXCLUSIVE', 1, clock_timestamp() - interval '1 second')");
  }

  private static long entries(String key, String ownerPattern) {
    return TestDatabase.number(postgres.server(), "SELECT count(*) FROM baton_locks WHERE lock_key = "
        + TestDatabase.literal(key) + " AND owner_id LIKE " + TestDatabase.literal(ownerPattern));
  }

  @Test
  void aClaimThatWaitedForTheKeysAdvisoryLockSeesTheEntryCommittedUnderIt() throws Exception {
    try (LockClient client = PostgresLockClient.connect(postgres.uri())) {
      BackgroundCall<Optional<Lease>> claim;
      try (Connection other = TestDatabase.inOpenTransaction(postgres.server(),
          "SELECT pg_advisory_xact_lock(hashtext('baton_locks'), hashtext('" + KEY + "'))")) {
        try (Statement insert = other.createStatement()) {
          insert.executeUpdate("INSERT INTO baton_locks (lock_key, entry_id, owner_id, holder, mode, capacity,"
              + " expires_at) VALUES ('" + KEY + "', nextval('baton_locks_fencing'), 'other', 'owner=other',"
              + " 'EXCLUSIVE', 1, clock_timestamp() + interval '1 minute')");
        }
        claim = BackgroundCall.start("claim", () -> client.lock(KEY).tryAcquire());
        await("the claim waiting for the key's advisory lock").atMost(Duration.ofSeconds(10))
            .until(() -> TestDatabase.number(postgres.server(), "SELECT count(*) FROM pg_stat_activity"
                + " WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'") == 1);
        other.commit();
      }

      assertThat(claim.result(Duration.ofSeconds(10))).as("the try of a key held by another entry").isEmpty();
      assertThat(TestDatabase.number(postgres.server(),
          "SELECT count(*) FROM baton_locks WHERE lock_key = " + TestDatabase.literal(KEY)))
          .as("entries of the key").isEqualTo(1);
    }
  }
}
