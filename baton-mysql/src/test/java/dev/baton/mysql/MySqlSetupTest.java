package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.BackendSetupException;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.servers.MariaDbServer;
import dev.baton.testkit.MariaDbServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.mariadb.jdbc.MariaDbDataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a client finds as it connects: a table of its own name made on first use, the application's data source, a
 * table of another shape or a read-only server refused with what to do.
 */
class MySqlSetupTest {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Test
  void aTableOfItsOwnNameIsMadeOnFirstUse() throws Exception {
    try (LockClient client = MySqlLockClient.builder().address(mariadb.uri()).table("baton.other_locks").connect();
        Lease lease = client.lock("setup").acquire(Duration.ofSeconds(5))) {
      assertThat(TestDatabase.numberForKey(mariadb.server(),
          "SELECT count(*) FROM other_locks WHERE lock_key = ?", "setup")).isEqualTo(1);
      assertThat(TestDatabase.numberForKey(mariadb.server(),
          "SELECT v FROM other_locks_fencing WHERE id = 1 AND ? IS NOT NULL", "")).isEqualTo(lease.fencingToken());
    }
  }

  /** The namespace names the table NAMESPACE_locks, so it must make a table name; a table beside it is refused. */
  @Test
  void aNamespaceIsItsOwnLockTableAndMustNotContradictOne() throws Exception {
    try (LockClient namespaced = MySqlLockClient.builder().address(mariadb.uri()).namespace("orders").connect();
        LockClient sameTable = MySqlLockClient.builder().address(mariadb.uri()).table("orders_locks").connect();
        LockClient plain = MySqlLockClient.connect(mariadb.uri());
        Lease lease = namespaced.lock("cart").acquire(Duration.ofSeconds(5))) {
      assertThat(sameTable.lock("cart").tryAcquire()).as("a client of the table orders_locks").isEmpty();
      assertThat(plain.lock("cart").tryAcquire()).as("a client of the default table").isPresent()
          .hasValueSatisfying(Lease::close);
    }
    assertThatThrownBy(() -> MySqlLockClient.builder().namespace("team/orders"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'team/orders'").hasMessageContaining("NAMESPACE_locks");
    assertThatThrownBy(() -> MySqlLockClient.builder().namespace(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MySqlLockClient.builder().address(mariadb.uri()).namespace("orders")
        .table("admin_locks").connect())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("orders_locks").hasMessageContaining("admin_locks");
  }

  @Test
  void aClientOnTheApplicationsDataSourceSharesTheLocksOfOneFromAnAddress() throws Exception {
    MariaDbDataSource pool = new MariaDbDataSource(mariadb.jdbcUrl());
    pool.setUser(MariaDbServer.USER);
    pool.setPassword(MariaDbServer.PASSWORD);
    try (LockClient pooled = MySqlLockClient.builder().dataSource(pool).connect();
        LockClient direct = MySqlLockClient.connect(mariadb.uri())) {
      try (Lease lease = pooled.lock("shared").acquire(Duration.ofSeconds(5))) {
        assertThat(direct.lock("shared").tryAcquire()).isEmpty();
        assertThat(direct.status("shared").fencingToken()).hasValue(lease.fencingToken());
      }
      try (Lease lease = direct.lock("shared").acquire(Duration.ofSeconds(5))) {
        assertThat(pooled.lock("shared").tryAcquire()).isEmpty();
      }
    }
    assertThat(TestDatabase.rowsUnder(mariadb.server(), "shared")).isZero();
  }

  @Test
  void aTableOfAnotherShapeIsRefused() {
    TestDatabase.execute(mariadb.server(), "CREATE TABLE foreign_locks (name VARCHAR(64) PRIMARY KEY)");
    TestDatabase.execute(mariadb.server(), "CREATE TABLE foreign_locks_fencing (id INT PRIMARY KEY)");
    assertThatThrownBy(() -> MySqlLockClient.builder().address(mariadb.uri()).table("foreign_locks").connect())
        .isInstanceOf(BackendSetupException.class)
        .hasMessageContainingAll("foreign_locks", "is not Baton's", "table(...)");
  }

  @Test
  void aReadOnlyServerIsRefused() {
    TestDatabase.execute(mariadb.server(), "SET GLOBAL read_only = ON");
    try {
      assertThatThrownBy(() -> MySqlLockClient.connect(mariadb.uri()))
          .isInstanceOf(BackendSetupException.class)
          .hasMessageContainingAll("read-only", "primary");
    } finally {
      TestDatabase.execute(mariadb.server(), "SET GLOBAL read_only = OFF");
    }
  }
}
