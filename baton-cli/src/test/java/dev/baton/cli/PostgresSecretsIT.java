package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.servers.PostgresServer;
import dev.baton.testkit.PostgresServerExtension;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PostgreSQL password given as a query parameter ({@code ?password=}, in every form of the address) reaches the
 * server, and never the command {@code exec} runs, nor what baton prints: its environment holds none of it, and
 * {@code BATON_BACKEND} is the address without the parameter.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PostgresSecretsIT {
  private static final String PASSWORD = PostgresServer.PASSWORD;

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @TempDir
  Path dir;

  @Test
  void theCommandGetsThePostgresqlAddressWithoutItsPasswordParameter() throws InterruptedException {
    String address = "postgresql://127.0.0.1:" + postgres.server().port() + "/postgres";
    assertExecHidesThePassword(address + "?user=baton&password=" + PASSWORD, address + "?user=baton");
  }

  @Test
  void theCommandGetsTheJdbcAddressWithoutItsPasswordParameter() throws InterruptedException {
    String address = "jdbc:postgresql://127.0.0.1:" + postgres.server().port() + "/postgres";
    assertExecHidesThePassword(address + "?password=" + PASSWORD + "&user=baton", address + "?user=baton");
  }

  @Test
  void statusAndListDoNotShowIt() throws InterruptedException {
    String uri = "postgres://127.0.0.1:" + postgres.server().port() + "/postgres?user=baton&password=" + PASSWORD;
    for (String[] args : new String[][] {{"status", "--verbose", "--backend", uri, "--key", "k"},
        {"list", "--verbose", "--backend", uri}}) {
      try (BatonProcess baton = BatonProcess.start(dir, args)) {
        assertThat(baton.awaitExit()).as(baton.output()).isZero();
        assertThat(baton.output()).doesNotContain(PASSWORD);
      }
    }
  }

  @Test
  void anUnreachableServersErrorDoesNotShowIt() throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--verbose", "--backend",
        "postgresql://127.0.0.1:1/postgres?user=baton&password=" + PASSWORD, "--key", "k", "--", "true")) {
      assertThat(baton.awaitExit()).as(baton.output()).isEqualTo(ExitCodes.UNAVAILABLE);
      assertThat(baton.output()).doesNotContain(PASSWORD);
    }
  }

  @Test
  void aMalformedAddressShowsItHidden() throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, "status", "--backend",
        "postgresql://?user=baton&password=" + PASSWORD, "--key", "k")) {
      assertThat(baton.awaitExit()).as(baton.output()).isEqualTo(ExitCodes.USAGE);
      assertThat(baton.output()).contains("password=***").doesNotContain(PASSWORD);
    }
  }

  /** Runs a command under the lock on {@code uri} that prints its environment, and checks what it saw. */
  private void assertExecHidesThePassword(String uri, String expected) throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--verbose", "--backend", uri, "--key", "secrets", "--",
        "sh", "-c", "echo \"backend=$BATON_BACKEND\"; env")) {
      assertThat(baton.awaitExit()).as(baton.output()).isZero();
      assertThat(baton.output()).contains("backend=" + expected).doesNotContain(PASSWORD);
    }
  }
}
