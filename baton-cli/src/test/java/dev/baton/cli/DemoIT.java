package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton demo} run as a newcomer would, and against a real Redis. */
@Timeout(60)
class DemoIT {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @TempDir
  Path dir;

  @Test
  void runsOnAnEmbeddedZooKeeperWithNothingInstalled() throws Exception {
    try (BatonProcess demo = BatonProcess.start(dir, "demo", "--workers", "3", "--seconds", "2")) {
      assertThat(demo.awaitExit()).isZero();
      assertThat(demo.output()).contains("(embedded)", "no update lost, mutual exclusion held")
          .as("the tokens in grant order: the first ten, how many more, the last ten")
          .containsPattern("fencing tokens  [\\d,]+ in grant order, each larger than the one before:\n"
              + " {16}\\d+( \\d+){9}\n {16}\\.\\.\\. [\\d,]+ more \\.\\.\\.\n {16}\\d+( \\d+){9}\n");
    }
  }

  @Test
  void showsItsProgressInPlainLinesWhenItsOutputIsNotATerminal() throws Exception {
    try (BatonProcess demo = BatonProcess.start(dir, "demo", "--workers", "2", "--seconds", "2")) {
      assertThat(demo.awaitExit()).isZero();
      assertThat(demo.output()).containsPattern("(?m)^ +\\d+ s  [\\d,]+ acquisitions  [\\d,]+/s$")
          .as("no progress bar").doesNotContain("[#", "[.");
    }
  }

  @Test
  void runsToTheEndWithTheDefaultSettings() throws Exception {
    try (BatonProcess demo = BatonProcess.start(dir, "demo")) {
      assertThat(demo.awaitExit()).isZero();
      assertThat(demo.output()).contains("8 workers", "for 10 s", "no update lost, mutual exclusion held");
    }
  }

  @Test
  void runsOnRedis() throws Exception {
    try (BatonProcess demo = BatonProcess.start(dir, "demo", "--backend", redis.uri(), "--workers", "4", "--seconds", "2")) {
      assertThat(demo.awaitExit()).isZero();
      assertThat(demo.output()).contains(redis.uri(), "no update lost, mutual exclusion held");
    }
  }

  @Test
  void runsOnEtcd() throws Exception {
    String backend = etcd.endpoint().replace("http://", "etcd://");
    try (BatonProcess demo = BatonProcess.start(dir, "demo", "--backend", backend, "--workers", "3", "--seconds", "2")) {
      assertThat(demo.awaitExit()).isZero();
      assertThat(demo.output()).contains(backend, "no update lost, mutual exclusion held");
    }
  }

  @Test
  void runsOnAStoreInsideTheProcess() throws Exception {
    try (BatonProcess demo = BatonProcess.start(dir, "demo", "--backend", "memory://", "--workers", "3", "--seconds", "2")) {
      assertThat(demo.awaitExit()).isZero();
      assertThat(demo.output()).contains("on memory://", "no update lost, mutual exclusion held");
    }
  }

  @Test
  void badNumbersAreUsageErrors() throws Exception {
    try (BatonProcess demo = BatonProcess.start(dir, "demo", "--workers", "0")) {
      assertThat(demo.awaitExit()).isEqualTo(ExitCodes.USAGE);
      assertThat(demo.output()).contains("--workers");
    }
  }
}
