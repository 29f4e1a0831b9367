package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.BackendSetupException;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.servers.MariaDbServer;
import dev.baton.testkit.MariaDbServerExtension;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.mariadb.jdbc.MariaDbDataSource;
import org.mariadb.jdbc.MariaDbPoolDataSource;

/**
 * The first try of an acquire in one round trip: {@code claim.sql} on the client's own pool, and on an application's
 * {@code DataSource}, which runs one statement a call, MariaDB's compound statement ({@code claim-block.sql}); taken
 * when the key has no live entry, and on a key with entries the full path, in queue order.
 */
class MySqlClaimTest {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Test
  void anUncontendedAcquireOnTheClientsOwnPoolIsOneClaimAndItsTokensGrow() {
    try (LockClient client = MySqlLockClient.connect(mariadb.uri())) {
      long last = client.lock("claim/warm").tryAcquire().orElseThrow().fencingToken();
      long claims = status("Com_insert_select");
      long inserts = status("Com_insert");
      for (int i = 0; i < 5; i++) {
        try (Lease lease = client.lock(i % 2 == 0 ? "claim/one" : "claim/" + i).tryAcquire().orElseThrow()) {
          assertThat(lease.fencingToken()).isGreaterThan(last);
          last = lease.fencingToken();
        }
      }
      assertThat(status("Com_insert_select") - claims).isEqualTo(5);
      assertThat(status("Com_insert") - inserts).isZero();
    }
  }

  @Test
  void anAcquireOfAKeyWithEntriesQueuesBehindThemInOrder() throws Exception {
    try (LockClient holder = MySqlLockClient.connect(mariadb.uri());
        LockClient waiter = MySqlLockClient.connect(mariadb.uri())) {
      Lease held = holder.lock("claim/queued").tryAcquire().orElseThrow();
      assertThat(waiter.lock("claim/queued").tryAcquire()).isEmpty();
      FutureTask<Lease> next = new FutureTask<>(() -> waiter.lock("claim/queued").acquire(Duration.ofSeconds(20)));
      new Thread(next, "claim-waiter").start();
      assertThat(holder.lock("claim/queued").tryAcquire()).isEmpty();
      held.close();
      try (Lease lease = next.get(20, TimeUnit.SECONDS)) {
        assertThat(lease.fencingToken()).isGreaterThan(held.fencingToken());
        assertThat(holder.lock("claim/queued").tryAcquire()).isEmpty();
      }
    }
    assertThat(TestDatabase.rowsUnder(mariadb.server(), "claim/queued")).isZero();
  }

  @Test
  void aCounterWithoutItsRowAddsNoEntryAndSaysHowToFixIt() {
    try (LockClient client = MySqlLockClient.builder().address(mariadb.uri()).table("norow_locks").connect()) {
      assertRefusedWithoutTheCountersRow(client, "norow_locks");
    }
  }

  @Test
  void aCounterWithoutItsRowAddsNoEntryOnTheApplicationsDataSourceEither() {
    try (LockClient client = MySqlLockClient.builder().dataSource(MySqlDataSourceClientFactory.dataSource(
        mariadb.uri())).table("norow_pooled_locks").connect()) {
      assertRefusedWithoutTheCountersRow(client, "norow_pooled_locks");
    }
  }

  private static void assertRefusedWithoutTheCountersRow(LockClient client, String table) {
    TestDatabase.execute(mariadb.server(), "DELETE FROM " + table + "_fencing");
    assertThatThrownBy(() -> client.lock("claim/norow").tryAcquire())
        .isInstanceOf(BackendSetupException.class)
        .hasMessageContainingAll(table + "_fencing", "INSERT INTO " + table + "_fencing");
    assertThat(TestDatabase.numberForKey(mariadb.server(),
        "SELECT count(*) FROM " + table + " WHERE lock_key = ?", "claim/norow")).isZero();
  }

  @Test
  void anUncontendedAcquireOnTheApplicationsDataSourceIsOneStatement() throws Exception {
    try (MariaDbPoolDataSource pool = new MariaDbPoolDataSource(mariadb.jdbcUrl() + "?user=" + MariaDbServer.USER
            + "&password=" + MariaDbServer.PASSWORD + "&maxPoolSize=2");
        LockClient client = MySqlLockClient.builder().dataSource(pool).sweepEvery(Duration.ofHours(1)).connect()) {
      long last;
      try (Lease warm = client.lock("claim/pooled").tryAcquire().orElseThrow()) {
        last = warm.fencingToken();
      }
      long first = status("Questions");
      long second = status("Questions"); // the status read's own statements, counted the same in each delta
      long claims = status("Com_insert_select");
      long inserts = status("Com_insert");
      long third = status("Questions");
      try (Lease lease = client.lock("claim/pooled").tryAcquire().orElseThrow()) {
        long fourth = status("Questions");
        assertThat(lease.fencingToken()).isGreaterThan(last);
        assertThat((fourth - third) - (second - first)).as("statements the client sent for the acquire").isOne();
        assertThat(status("Com_insert_select") - claims).isOne();
        assertThat(status("Com_insert") - inserts).isZero();
      }
    }
  }

  @Test
  void anAcquireOnTheApplicationsDataSourceQueuesBehindAHolderAndTokensGrow() throws Exception {
    MariaDbDataSource pool = MySqlDataSourceClientFactory.dataSource(mariadb.uri());
    try (LockClient holder = MySqlLockClient.builder().dataSource(pool).connect();
        LockClient waiter = MySqlLockClient.builder().dataSource(pool).connect()) {
      Lease held = holder.lock("claim/pooled-queued").tryAcquire().orElseThrow();
      assertThat(waiter.lock("claim/pooled-queued").tryAcquire()).isEmpty();
      FutureTask<Lease> next = new FutureTask<>(
          () -> waiter.lock("claim/pooled-queued").acquire(Duration.ofSeconds(20)));
      new Thread(next, "claim-pooled-waiter").start();
      held.close();
      try (Lease lease = next.get(20, TimeUnit.SECONDS)) {
        assertThat(lease.fencingToken()).isGreaterThan(held.fencingToken());
        assertThat(holder.lock("claim/pooled-queued").tryAcquire()).isEmpty();
      }
    }
    assertThat(TestDatabase.rowsUnder(mariadb.server(), "claim/pooled-queued")).isZero();
  }

  @Test
  void aClaimOnTheApplicationsDataSourceLocksNoEntryItReads() throws Exception {
    // An expired entry of the key, locked by another transaction: a claim that read with locks, as an INSERT ...
    // SELECT does at REPEATABLE READ (the session's level here), would wait for it past the command timeout.
    TestDatabase.execute(mariadb.server(), "INSERT INTO baton_locks (lock_key, entry_id, owner_id, holder, mode,"
        + " capacity, expires_at) VALUES ('claim/read-unlocked', 1, 'gone', 'gone', 'EXCLUSIVE', 1,"
        + " UTC_TIMESTAMP(6) - INTERVAL 1 HOUR)");
    try (Connection other = TestDatabase.connect(mariadb.server());
        LockClient client = MySqlLockClient.builder().dataSource(MySqlDataSourceClientFactory.dataSource(
            mariadb.uri())).sweepEvery(Duration.ofHours(1)).commandTimeout(Duration.ofSeconds(2)).connect()) {
      other.setAutoCommit(false);
      try (Statement lock = other.createStatement()) {
        lock.executeQuery("SELECT * FROM baton_locks WHERE lock_key = 'claim/read-unlocked' AND entry_id = 1"
            + " FOR UPDATE").close();
        long claims = status("Com_insert_select");
        try (Lease lease = client.lock("claim/read-unlocked").tryAcquire().orElseThrow()) {
          assertThat(status("Com_insert_select") - claims).isOne();
          assertThat(lease.fencingToken()).isGreaterThan(1);
        }
      } finally {
        other.rollback();
      }
    }
  }

  @Test
  void aDataSourceWhoseDriverPreparesOnTheServerClaimsInOneStatementToo() throws Exception {
    MariaDbDataSource pool = new MariaDbDataSource(mariadb.jdbcUrl() + "?useServerPrepStmts=true");
    pool.setUser(MariaDbServer.USER);
    pool.setPassword(MariaDbServer.PASSWORD);
    try (LockClient client = MySqlLockClient.builder().dataSource(pool).connect();
        LockClient other = MySqlLockClient.connect(mariadb.uri())) {
      long last = 0;
      for (int i = 0; i < 3; i++) {
        long claims = status("Com_insert_select");
        long inserts = status("Com_insert");
        try (Lease lease = client.lock("claim/server-prepared").tryAcquire().orElseThrow()) {
          assertThat(status("Com_insert_select") - claims).isOne();
          assertThat(status("Com_insert") - inserts).isZero();
          assertThat(lease.fencingToken()).isGreaterThan(last);
          assertThat(other.lock("claim/server-prepared").tryAcquire()).isEmpty();
          last = lease.fencingToken();
        }
      }
    }
  }

  private static long status(String name) {
    return TestDatabase.status(mariadb.server(), name);
  }
}
