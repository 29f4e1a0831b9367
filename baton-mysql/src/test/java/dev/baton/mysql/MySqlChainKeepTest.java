package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockHolder;
import dev.baton.jdbc.DataSourceConnections;
import dev.baton.servers.MariaDbServer;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.ChainEnd;
import dev.baton.spi.Grant;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import dev.baton.testkit.MariaDbServerExtension;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * The keep at the end of a chain of local hand-overs ({@code MySqlBackend.keepUnlessOthersWait}, {@code keep.sql}): it
 * renews an entry no other client waits for, releases one a waiter marked or one with less than its margin left, and
 * does not count on a renewal that may have written after the entry expired. {@code keep.sql} finds the entry live,
 * with the margin left, by the time its statement began, then waits, here for a row lock on the entry that another
 * session holds (on a Galera node that lags, for the cluster), while the entry expires and another client, counting it
 * gone, takes the key; counting on that renewal, the chain would go on while the other client holds.
 */
class MySqlChainKeepTest {
  /** The ttl of the keeps: a margin of 0.5 s. */
  private static final Duration TTL = Duration.ofSeconds(2);
  /** The ttl of an entry as granted: 2.5 s more than the margin of a keep with {@link #TTL}, for a loaded machine. */
  private static final Duration GRANTED = Duration.ofSeconds(3);
  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Test
  @Timeout(60)
  void aKeepThatWritesAfterItsEntryExpiredIsNotCountedOnAndTheOtherClientHoldsAlone() throws Exception {
    String key = "chain-keep/late";
    try (MySqlBackend backend = backend(); LockClient other = client();
        Connection rowLock = TestDatabase.connect(mariadb.server())) {
      Grant grant = grant(backend, key);
      rowLock.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED); // the row alone, no gap after it
      rowLock.setAutoCommit(false);
      try (PreparedStatement lock = rowLock.prepareStatement(
          "SELECT entry_id FROM baton_locks WHERE lock_key = ? AND entry_id = ? FOR UPDATE")) {
        lock.setBytes(1, key.getBytes(StandardCharsets.UTF_8));
        lock.setLong(2, grant.fencingToken());
        try (ResultSet row = lock.executeQuery()) {
          assertThat(row.next()).as("the holder's entry").isTrue();
        }
      }
      CompletableFuture<ChainEnd> keep = CompletableFuture.supplyAsync(() -> backend.keepUnlessOthersWait(grant, TTL));
      await().atMost(PROMPTLY).until(() -> lockWaits() == 1); // keep.sql, held up after it compared
      await().atMost(PROMPTLY).until(() -> liveEntries(key) == 0); // the entry expired meanwhile
      Lease taken = other.lock(key).tryAcquire().orElseThrow();
      rowLock.rollback(); // keep.sql writes now

      assertThat(keep.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("the late keep").isEqualTo(ChainEnd.RELEASED);
      assertThat(taken.isHeld()).isTrue();
      assertThat(liveEntries(key)).as("live entries: the other client's alone").isEqualTo(1);
      assertThat(TestDatabase.numberForKey(mariadb.server(),
          "SELECT count(*) FROM baton_locks WHERE lock_key = ? AND entry_id = " + grant.fencingToken(), key))
          .as("the kept entry, deleted").isZero();
      taken.close();
    }
  }

  @Test
  void anEntryNoOneWaitsForIsKeptWithANewExpiryAndOneAWaiterMarkedIsReleased() {
    String key = "chain-keep/kept";
    try (MySqlBackend backend = backend(); LockClient other = client()) {
      Grant grant = grant(backend, key);
      // A ttl of 6 s: a margin of 1.5 s, which the entry, granted for 3 s, has left.
      assertThat(backend.keepUnlessOthersWait(grant, Duration.ofSeconds(6))).isEqualTo(ChainEnd.KEPT);
      assertThat(remainingMillis(key)).as("the kept entry's ms left").isGreaterThan(GRANTED.toMillis());

      assertThat(other.lock(key).tryAcquire()).as("another client's try, which marks the entry").isEmpty();
      assertThat(backend.keepUnlessOthersWait(grant, TTL)).isEqualTo(ChainEnd.RELEASED);
      assertThat(liveEntries(key)).isZero();
      try (Lease lease = other.lock(key).tryAcquire().orElseThrow()) {
        assertThat(lease.fencingToken()).isGreaterThan(grant.fencingToken());
      }
    }
  }

  @Test
  void anEntryWithLessThanTheMarginLeftIsReleased() {
    String key = "chain-keep/short";
    try (MySqlBackend backend = backend()) {
      Grant grant = grant(backend, key);
      // A ttl of 60 s: a margin of 15 s, which the entry, granted for 3 s, lacks.
      assertThat(backend.keepUnlessOthersWait(grant, Duration.ofSeconds(60))).isEqualTo(ChainEnd.RELEASED);
      assertThat(liveEntries(key)).isZero();
    }
  }

  @Test
  void aKeepOfAnEntryThatIsGoneSaysSo() {
    String key = "chain-keep/gone";
    try (MySqlBackend backend = backend()) {
      Grant grant = grant(backend, key);
      TestDatabase.updateForKey(mariadb.server(), "DELETE FROM baton_locks WHERE lock_key = ?", key);
      assertThat(backend.keepUnlessOthersWait(grant, TTL)).isEqualTo(ChainEnd.GONE);
    }
  }

  /** The store of a client, on a plain {@code DataSource} of the test server, a connection a call. */
  private static MySqlBackend backend() {
    MariaDbDataSource dataSource;
    try {
      dataSource = new MariaDbDataSource(mariadb.server().jdbcUrl());
      dataSource.setUser(MariaDbServer.USER);
      dataSource.setPassword(MariaDbServer.PASSWORD);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return MySqlBackend.connect(new DataSourceConnections(dataSource), new Sql(Sql.DEFAULT_TABLE),
        Duration.ofSeconds(30), Duration.ofMillis(250), Duration.ofMinutes(10), "the test server", false);
  }

  /** An entry of {@code key} taken at the store with a ttl of {@link #GRANTED}, as the engine's first try takes it. */
  private static Grant grant(MySqlBackend backend, String key) {
    AcquireRequest request = new AcquireRequest(key, "chain-keep:1", QueueRule.EXCLUSIVE, GRANTED, null, true, false,
        new LockHolder("test-host", ProcessHandle.current().pid(), "test", Instant.now()));
    Outcome outcome = backend.newAttempt(request).tryAcquire(() -> { });
    assertThat(outcome.isGranted()).as("granted").isTrue();
    return outcome.grant();
  }

  /** A client whose sweep of expired entries does not run during the test, to take the expired entry's key first. */
  private static LockClient client() {
    return MySqlLockClient.builder().address(mariadb.uri()).sweepEvery(Duration.ofMinutes(10)).connect();
  }

  private static long liveEntries(String key) {
    return TestDatabase.numberForKey(mariadb.server(),
        "SELECT count(*) FROM baton_locks WHERE lock_key = ? AND expires_at >= UTC_TIMESTAMP(6)", key);
  }

  private static long remainingMillis(String key) {
    return TestDatabase.numberForKey(mariadb.server(),
        "SELECT TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), max(expires_at)) DIV 1000 FROM baton_locks"
            + " WHERE lock_key = ?", key);
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
