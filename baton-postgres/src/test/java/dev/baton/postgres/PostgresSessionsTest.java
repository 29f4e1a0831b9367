package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.PermissionDeniedException;
import dev.baton.servers.PostgresServer;
import dev.baton.testkit.PostgresServerExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An operator ends Baton's sessions on a database ({@link PostgresSessions}): exactly the clients' sessions end,
 * another application's live on, and the clients connect again and still exclude each other.
 */
class PostgresSessionsTest {
  private static final Duration BOUND = Duration.ofSeconds(10);

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Test
  void endsTheSessionsOfBatonsClientsAndNoOtherApplicationsAndTheClientsLockAgain() throws Exception {
    try (LockClient first = PostgresLockClient.connect(postgres.uri());
        LockClient second = PostgresLockClient.connect(postgres.uri());
        Connection other = TestDatabase.connect(postgres.server())) {
      String sessions = text(other, "SELECT string_agg(pid::text, ',') FROM pg_stat_activity"
          + " WHERE application_name = 'baton' AND datname = current_database()");
      assertThat(sessions.split(",")).as("a listening connection of each client at least").hasSizeGreaterThan(1);

      assertThat(PostgresSessions.terminate(postgres.uri())).isEqualTo(sessions.split(",").length);

      await("the clients' sessions ended").atMost(BOUND).until(() -> TestDatabase.number(postgres.server(),
          "SELECT count(*) FROM pg_stat_activity WHERE pid IN (" + sessions + ")") == 0);
      assertThat(text(other, "SELECT 'alive'")).as("another application's connection").isEqualTo("alive");
      Lease held = answered(() -> first.lock("sessions").tryAcquire()).orElseThrow();
      assertThat(answered(() -> second.lock("sessions").tryAcquire())).isEmpty();
      held.close();
      try (Lease next = second.lock("sessions").acquire(BOUND)) {
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
      }
    }
  }

  @Test
  void aWrongPasswordIsARefusalNamingTheUserAndNotThePassword() {
    String address = "postgresql://" + PostgresServer.USER + ":not-the-password-42@127.0.0.1:"
        + postgres.server().port() + "/" + PostgresServer.DATABASE;

    assertThatThrownBy(() -> PostgresSessions.terminate(address))
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageContaining("\"" + PostgresServer.USER + "\"")
        .hasMessageContaining("127.0.0.1:" + postgres.server().port())
        .hasMessageNotContaining("not-the-password-42");
    assertThatThrownBy(() -> PostgresSessions.terminate(postgres.jdbcUrl(), PostgresServer.USER, "not-this-one-17"))
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageContaining("\"" + PostgresServer.USER + "\"")
        .hasMessageNotContaining("not-this-one-17");
  }

  @Test
  void aUserWhoMayNotSignalTheClientsIsToldWhatItNeeds() throws Exception {
    TestDatabase.update(postgres.server(), "CREATE ROLE bystander LOGIN PASSWORD 'bystander-pw-7'");
    try (LockClient client = PostgresLockClient.connect(postgres.uri())) {
      assertThatThrownBy(() -> PostgresSessions.terminate(postgres.jdbcUrl(), "bystander", "bystander-pw-7"))
          .isInstanceOf(PermissionDeniedException.class)
          .hasMessageContaining("\"bystander\"")
          .hasMessageContaining("pg_signal_backend")
          .hasMessageNotContaining("bystander-pw-7");
      assertThat(client.status("sessions").isHeld()).as("the client, still connected").isFalse();
    } finally {
      TestDatabase.update(postgres.server(), "DROP ROLE bystander");
    }
  }

  /** The answer of {@code call} once a client has found out that its connections ended (one call may fail). */
  private static <T> T answered(Callable<T> call) {
    return await("an answer from a client whose sessions ended").atMost(BOUND)
        .ignoreException(BackendUnavailableException.class).until(call, answer -> true);
  }

  private static String text(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getString(1);
    }
  }
}
