package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.BackendSetupException;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.testkit.PostgresServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A database that answers but is not set up for Baton (no such schema or database, a lock table of another shape, a
 * table changed under a running client): a {@link BackendSetupException} at once that says what to create or change,
 * never an outage retried for the whole wait, and nothing left open.
 */
class PostgresSetupTest {
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Test
  void aTableInASchemaThatDoesNotExistFailsTheConnectSayingToCreateTheSchema() {
    assertThatThrownBy(() -> PostgresLockClient.builder().address(postgres.uri()).table("nosuch.locks").connect())
        .isInstanceOf(BackendSetupException.class)
        .hasMessageContaining("nosuch.locks")
        .hasMessageContaining("CREATE SCHEMA");
    assertThat(backgroundThreads()).isZero();
  }

  @Test
  void aDatabaseThatDoesNotExistFailsTheConnectSayingSo() {
    String address = postgres.uri().replaceFirst("/[^/]*$", "/nosuchdb");

    assertThatThrownBy(() -> PostgresLockClient.connect(address))
        .isInstanceOf(BackendSetupException.class)
        .hasMessageContaining("nosuchdb")
        .hasMessageContaining("no such database");
    assertThat(backgroundThreads()).isZero();
  }

  @Test
  void aTableOfAnotherShapeFailsTheConnectNamingTheMissingColumn() {
    TestDatabase.update(postgres.server(), "CREATE TABLE other_locks (key text, id bigint, expires timestamptz);"
        + " CREATE SEQUENCE other_locks_fencing");

    assertThatThrownBy(() -> PostgresLockClient.builder().address(postgres.uri()).table("other_locks").connect())
        .isInstanceOf(BackendSetupException.class)
        .hasMessageContaining("the lock table other_locks is not Baton's")
        .hasMessageContaining("lock_key")
        .hasMessageContaining("DDL");
    assertThat(backgroundThreads()).isZero();
  }

  @Test
  void aTableChangedUnderARunningClientFailsItsCallsAtOnceNotAsAnOutage() throws Exception {
    try (LockClient client = PostgresLockClient.builder().address(postgres.uri()).table("changed_locks").connect()) {
      TestDatabase.update(postgres.server(), "ALTER TABLE changed_locks RENAME COLUMN lock_key TO name");

      // Retried as an outage, this would keep trying for the whole minute and then be BackendUnavailableException.
      LockOptions waitAMinute = client.defaultOptions().withWaitTime(Duration.ofMinutes(1));
      assertThatThrownBy(() -> client.lock("changed/k").acquire(waitAMinute))
          .isInstanceOf(BackendSetupException.class)
          .hasMessageStartingWith("Acquiring 'changed/k'")
          .hasMessageContaining("the lock table changed_locks is not Baton's")
          .hasMessageContaining("lock_key");
      assertThatThrownBy(() -> client.status("changed/k")).isInstanceOf(BackendSetupException.class);
    }
  }

  @Test
  void aMissingIndexIsAddedToATableMadeWithoutIt() {
    TestDatabase.update(postgres.server(), new Sql("unindexed_locks").create);

    PostgresLockClient.builder().address(postgres.uri()).table("unindexed_locks").connect().close();

    assertThat(TestDatabase.number(postgres.server(),
        "SELECT count(*) FROM pg_indexes WHERE indexname = 'unindexed_locks_expires_at'")).isOne();
  }

  private static long backgroundThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().startsWith("baton-postgres"))
        .count();
  }
}
