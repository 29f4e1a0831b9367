package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockException;
import dev.baton.testkit.PostgresServerExtension;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A call that hangs on the server is cancelled there once it outlasts the command timeout: the acquire fails instead
 * of hanging, no statement of the client is left waiting on the server, and the key is free once the hang is over.
 */
class PostgresCommandTimeoutTest {
  private static final String KEY = "stuck";
  private static final String WAITING_BATON_STATEMENTS = "SELECT count(*) FROM pg_stat_activity"
      + " WHERE application_name = 'baton' AND wait_event_type = 'Lock'";

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Test
  void aStatementStuckOnTheServerIsCancelledThereAndTheKeyIsFreeAfterwards() throws Exception {
    try (LockClient client = PostgresLockClient.builder().address(postgres.uri())
        .commandTimeout(Duration.ofSeconds(2)).connect()) {
      // Another session holds the key's advisory lock in a transaction it does not end: every acquire of the key
      // waits for it on the server.
      try (Connection blocker = TestDatabase.inOpenTransaction(postgres.server(), "SELECT pg_advisory_xact_lock("
          + "hashtext('" + PostgresLockClient.DEFAULT_TABLE + "'), hashtext('" + KEY + "'))")) {
        assertThatThrownBy(() -> client.lock(KEY).acquire(Duration.ofSeconds(5))).isInstanceOf(LockException.class);

        // Without the cancel, the server would go on waiting for the lock after the client gave up on the reply.
        await("no statement of the client left waiting on the server").atMost(Duration.ofSeconds(10))
            .until(() -> TestDatabase.number(postgres.server(), WAITING_BATON_STATEMENTS) == 0);
        assertThat(blocker.isValid(1)).as("the blocking session, untouched").isTrue();
      }

      try (Lease lease = client.lock(KEY).acquire(Duration.ofSeconds(5))) {
        assertThat(lease.isHeld()).isTrue();
      }
      assertThat(client.status(KEY).isHeld()).as("held after the release").isFalse();
    }
  }
}
