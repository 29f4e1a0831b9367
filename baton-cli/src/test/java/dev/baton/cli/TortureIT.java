package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Path;
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

  @Test
  void aServerFaultNeedsAStoreTheTortureStartedItself() throws Exception {
    try (BatonProcess torture = BatonProcess.start(dir, "torture", "--backend", redis.uri(), "--faults", "server-restart")) {
      assertThat(torture.awaitExit()).isEqualTo(ExitCodes.USAGE);
      assertThat(torture.output()).contains("server-restart", "pause and kill");
    }
  }
}
