package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.BackendSetupException;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.servers.MariaDbServer;
import dev.baton.testkit.MariaDbServerExtension;
import java.time.Duration;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * The first try of an acquire in one round trip ({@code claim.sql}) on the client's own pool: taken when the key has
 * no live entry, and on a key with entries the full path, in queue order; an application's {@code DataSource}, which
 * may not run several statements a call, takes the full path always.
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
      TestDatabase.execute(mariadb.server(), "DELETE FROM norow_locks_fencing");
      assertThatThrownBy(() -> client.lock("claim/norow").tryAcquire())
          .isInstanceOf(BackendSetupException.class)
          .hasMessageContainingAll("norow_locks_fencing", "INSERT INTO norow_locks_fencing");
      assertThat(TestDatabase.numberForKey(mariadb.server(),
          "SELECT count(*) FROM norow_locks WHERE lock_key = ?", "claim/norow")).isZero();
    }
  }

  @Test
  void aClientOnTheApplicationsDataSourceTakesTheFullPath() throws Exception {
    MariaDbDataSource pool = new MariaDbDataSource(mariadb.jdbcUrl());
    pool.setUser(MariaDbServer.USER);
    pool.setPassword(MariaDbServer.PASSWORD);
    try (LockClient client = MySqlLockClient.builder().dataSource(pool).connect()) {
      client.lock("claim/pooled").tryAcquire().orElseThrow().close();
      long claims = status("Com_insert_select");
      long inserts = status("Com_insert");
      try (Lease lease = client.lock("claim/pooled").tryAcquire().orElseThrow()) {
        assertThat(status("Com_insert") - inserts).isEqualTo(1);
        assertThat(status("Com_insert_select") - claims).isZero();
      }
    }
  }

  private static long status(String name) {
    return TestDatabase.status(mariadb.server(), name);
  }
}
