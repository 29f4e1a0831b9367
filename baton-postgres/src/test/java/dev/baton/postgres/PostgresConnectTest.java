package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.PermissionDeniedException;
import dev.baton.embedded.internal.Loopback;
import dev.baton.servers.PostgresServer;
import dev.baton.testkit.PostgresServerExtension;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Addresses, logins and data sources: what a client is given to connect, right or wrong. */
class PostgresConnectTest {
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Test
  void aWrongPasswordIsARefusalNamingTheUserAndNotThePassword() {
    String address = "postgresql://" + PostgresServer.USER + ":not-the-password-42@127.0.0.1:"
        + postgres.server().port() + "/" + PostgresServer.DATABASE;

    assertThatThrownBy(() -> PostgresLockClient.connect(address))
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageContaining("\"" + PostgresServer.USER + "\"")
        .hasMessageContaining("password")
        .hasMessageNotContaining("not-the-password-42");
    assertThat(backgroundThreads()).isZero();
  }

  @Test
  void anUnreachableServerIsUnavailableNamingItsAddress() {
    int closedPort = Loopback.freePort();

    assertThatThrownBy(() -> PostgresLockClient.builder()
        .address("jdbc:postgresql://127.0.0.1:" + closedPort + "/db?user=someone&password=secret-99")
        .commandTimeout(Duration.ofSeconds(2))
        .connect())
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("127.0.0.1:" + closedPort)
        .hasMessageNotContaining("secret-99");
    assertThat(backgroundThreads()).isZero();
  }

  @Test
  void aMalformedAddressIsRejectedWithItsPasswordHidden() {
    assertThatThrownBy(() -> PostgresLockClient.connect("mysql://root:hunter2@db:3306/x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("postgresql://user:password@host:5432/db")
        .hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> PostgresLockClient.builder().table("Robert'); DROP TABLE students;--"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lock table");
  }

  /** The namespace names the table NAMESPACE_locks, so it must make a table name; a table beside it is refused. */
  @Test
  void aNamespaceMustNameATableAndNotContradictOne() {
    assertThatThrownBy(() -> PostgresLockClient.builder().namespace("team/orders"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'team/orders'").hasMessageContaining("NAMESPACE_locks");
    assertThatThrownBy(() -> PostgresLockClient.builder().namespace(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PostgresLockClient.builder().address(postgres.uri()).namespace("orders")
        .table("admin_locks").connect())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("orders_locks").hasMessageContaining("admin_locks");
  }

  @Test
  void aJdbcAddressAndADataSourceReachTheSameLocks() throws Exception {
    DataSource dataSource = TestDatabase.dataSource(postgres.server());
    try (LockClient pooled = PostgresLockClient.builder().dataSource(dataSource).connect();
        LockClient direct = PostgresLockClient.builder().address(postgres.jdbcUrl())
            .credentials(PostgresServer.USER, PostgresServer.PASSWORD).connect()) {
      try (Lease lease = pooled.lock("connect/shared").acquire(Duration.ofSeconds(5))) {
        assertThat(direct.lock("connect/shared").tryAcquire()).isEmpty();
        assertThat(direct.status("connect/shared").fencingToken()).hasValue(lease.fencingToken());
      }
      try (Lease lease = direct.lock("connect/shared").acquire(Duration.ofSeconds(5))) {
        assertThat(pooled.lock("connect/shared").tryAcquire()).isEmpty();
        assertThat(pooled.status("connect/shared").fencingToken()).hasValue(lease.fencingToken());
      }
    }
    assertThat(TestDatabase.number(postgres.server(), "SELECT count(*) FROM baton_locks")).isZero();
  }

  private static long backgroundThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().startsWith("baton-postgres"))
        .count();
  }
}
