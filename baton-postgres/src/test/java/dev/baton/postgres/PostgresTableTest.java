package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockClient;
import dev.baton.Lease;
import dev.baton.PermissionDeniedException;
import dev.baton.testkit.PostgresServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An application user that may not create tables (PostgreSQL 15 and later give no one but the owner the right to
 * create in schema {@code public}): it uses a table an administrator created with the documented DDL, and is told
 * what to do when there is none.
 */
class PostgresTableTest {
  private static final String APP = "app";
  private static final String APP_PASSWORD = "app-password";

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @BeforeAll
  static void createTheApplicationsUser() {
    TestDatabase.update(postgres.server(), "CREATE ROLE " + APP + " LOGIN PASSWORD '" + APP_PASSWORD + "'");
    TestDatabase.update(postgres.server(), "REVOKE CREATE ON SCHEMA public FROM PUBLIC");
  }

  @Test
  void aUserWhoMayNotCreateTablesUsesTheTableAnAdministratorCreated() throws Exception {
    TestDatabase.update(postgres.server(), new Sql("admin_locks").create);
    TestDatabase.update(postgres.server(), new Sql("admin_locks").index);
    TestDatabase.update(postgres.server(), "GRANT SELECT, INSERT, UPDATE, DELETE ON admin_locks TO " + APP);
    TestDatabase.update(postgres.server(), "GRANT USAGE ON SEQUENCE admin_locks_fencing TO " + APP);

    try (LockClient client = PostgresLockClient.builder().address(appAddress()).table("admin_locks").connect();
        Lease lease = client.lock("admin/k").acquire(Duration.ofSeconds(5))) {
      assertThat(client.status("admin/k").fencingToken()).hasValue(lease.fencingToken());
      assertThat(TestDatabase.number(postgres.server(), "SELECT count(*) FROM admin_locks")).isOne();
    }
  }

  @Test
  void withoutATableAndTheRightToCreateOneTheClientIsRefusedAndToldWhatToDo() {
    assertThatThrownBy(() -> PostgresLockClient.builder().address(appAddress()).table("missing_locks").connect())
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageContaining("missing_locks")
        .hasMessageContaining("DDL");
  }

  private static String appAddress() {
    return postgres.uri().replaceFirst("//[^@]*@", "//" + APP + ":" + APP_PASSWORD + "@");
  }
}
