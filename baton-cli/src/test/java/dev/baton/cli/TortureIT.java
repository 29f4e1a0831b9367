package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendUnavailableException;
import dev.baton.LockClient;
import dev.baton.postgres.PostgresLockClient;
import dev.baton.servers.PostgresServer;
import dev.baton.testkit.PostgresServerExtension;
import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton torture} from the command line: worker processes started from the jar, and the report. */
@Timeout(90)
class TortureIT {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @TempDir
  Path dir;

  @Test
  void torturesTheEmbeddedZooKeeperWithEveryFaultAndWritesTheReport() throws Exception {
    Path report = dir.resolve("report");
    try (BatonProcess torture = BatonProcess.start(dir, "torture", "--workers", "3", "--seconds", "5", "--ttl", "500ms",
        "--faults", "pause,kill,server-restart", "--report", report.toString())) {
      assertThat(torture.awaitExit()).as(torture.output()).isZero();
      assertThat(torture.output()).contains("(embedded)", "PASSED", "fencing tokens strictly increased: yes");
    }
    assertThat(report.resolve("summary.txt")).content().startsWith("PASSED");
    assertThat(report.resolve("result.json")).content().contains("\"passed\": true");
    assertThat(ImageIO.read(report.resolve("timeline.png").toFile()).getWidth()).isPositive();
  }

  @Test
  void killsTheLeaderOfAnEmbeddedEnsemble() throws Exception {
    try (BatonProcess torture = BatonProcess.start(dir, "torture", "--workers", "2", "--seconds", "4", "--ttl", "500ms",
        "--faults", "leader-kill")) {
      assertThat(torture.awaitExit()).as(torture.output()).isZero();
      assertThat(torture.output()).contains("(embedded)", "PASSED", "faults injected: ");
    }
  }

  @Test
  void torturesTheReadWriteLockAndShowsHowManyReadersHeldAtOnce() throws Exception {
    Path report = dir.resolve("report");
    try (BatonProcess torture = BatonProcess.start(dir, "torture", "--primitive", "rw", "--workers", "4", "--seconds",
        "5", "--ttl", "500ms", "--faults", "pause", "--report", report.toString())) {
      assertThat(torture.awaitExit()).as(torture.output()).isZero();
      assertThat(torture.output()).contains("the read-write lock", "PASSED", "by readers", "most readers at once: ");
    }
    assertThat(report.resolve("result.json")).content().contains("\"primitive\": \"rw\"", "\"shared\":true");
  }

  @Test
  void torturesASemaphoreOfTheGivenPermits() throws Exception {
    try (BatonProcess torture = BatonProcess.start(dir, "torture", "--primitive", "semaphore", "--permits", "2",
        "--workers", "4", "--seconds", "5", "--ttl", "500ms", "--faults", "pause")) {
      assertThat(torture.awaitExit()).as(torture.output()).isZero();
      assertThat(torture.output()).contains("the semaphore of 2 permits", "PASSED", "most permit holders at once: ");
    }
  }

  @Test
  void torturesLeadershipThroughLeaderKills() throws Exception {
    try (BatonProcess torture = BatonProcess.start(dir, "torture", "--primitive", "leader", "--workers", "3",
        "--seconds", "5", "--ttl", "500ms", "--faults", "leader-kill")) {
      assertThat(torture.awaitExit()).as(torture.output()).isZero();
      assertThat(torture.output()).contains("the leadership", "PASSED", "terms: ");
    }
  }

  @Test
  void torturesMultiLocksOverOverlappingKeys() throws Exception {
    try (BatonProcess torture = BatonProcess.start(dir, "torture", "--primitive", "multi", "--workers", "4",
        "--seconds", "6", "--ttl", "500ms", "--faults", "pause,kill")) {
      assertThat(torture.awaitExit()).as(torture.output()).isZero();
      assertThat(torture.output()).contains("PASSED", "multi-locks over 5 keys", "unexplained overlaps: 0");
    }
  }

  @Test
  void permitsAreForTheSemaphoreAndFewerThanTheWorkers() throws Exception {
    try (BatonProcess torture = BatonProcess.start(dir, "torture", "--primitive", "rw", "--permits", "2")) {
      assertThat(torture.awaitExit()).isEqualTo(ExitCodes.USAGE);
      assertThat(torture.output()).contains("--permits is for --primitive semaphore");
    }
    try (BatonProcess torture = BatonProcess.start(dir, "torture", "--primitive", "semaphore", "--permits", "6")) {
      assertThat(torture.awaitExit()).isEqualTo(ExitCodes.USAGE);
      assertThat(torture.output()).contains("one fewer than the 6 workers");
    }
  }

  @Test
  void torturesRedisGivenByAddress() throws Exception {
    try (BatonProcess torture = BatonProcess.start(dir, "torture", "--backend", redis.uri(), "--workers", "2",
        "--seconds", "3", "--ttl", "500ms")) {
      assertThat(torture.awaitExit()).as(torture.output()).isZero();
      assertThat(torture.output()).contains(redis.uri(), "PASSED");
    }
  }

  /**
   * The first fault may come before the workers have connected: the client of this test is a session of Baton's
   * that every fault ends, and the plain connection one that none may end.
   */
  @Test
  void endsBatonsSessionsOnAPostgresqlGivenByAddressAndNoOneElses() throws Exception {
    try (LockClient client = PostgresLockClient.connect(postgres.uri());
        Connection bystander = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER,
            PostgresServer.PASSWORD);
        BatonProcess torture = BatonProcess.start(dir, "torture", "--backend", postgres.uri(), "--workers", "3",
            "--seconds", "3", "--ttl", "500ms", "--faults", "connection-kill")) {
      assertThat(torture.awaitExit()).as(torture.output()).isZero();
      assertThat(torture.output()).contains("PASSED").containsPattern("faults injected: [1-9]")
          .containsPattern("connection-kill: [1-9]\\d* sessions of Baton's clients ended in [1-9]\\d* faults");
      assertThat(bystander.isValid(5)).as("another application's connection, after the torture").isTrue();
      await("the test's client, connected again").atMost(Duration.ofSeconds(10))
          .ignoreException(BackendUnavailableException.class).until(() -> !client.status("baton-torture").isHeld());
    }
  }

  @Test
  void aServerFaultNeedsAStoreTheTortureStartedItself() throws Exception {
    try (BatonProcess torture = BatonProcess.start(dir, "torture", "--backend", redis.uri(), "--faults", "server-restart")) {
      assertThat(torture.awaitExit()).isEqualTo(ExitCodes.USAGE);
      assertThat(torture.output()).contains("server-restart", "pause and kill");
    }
    try (BatonProcess torture = BatonProcess.start(dir, "torture", "--backend", postgres.uri(), "--faults",
        "connection-kill,server-restart")) {
      assertThat(torture.awaitExit()).isEqualTo(ExitCodes.USAGE);
      assertThat(torture.output()).contains("server-restart", "pause, kill and connection-kill")
          .doesNotContain(PostgresServer.PASSWORD);
    }
  }
}
