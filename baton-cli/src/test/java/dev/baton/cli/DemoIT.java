package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code baton demo} run as a newcomer would, and against a real Redis. */
@Timeout(60)
class DemoIT {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Test
  void runsOnAnEmbeddedZooKeeperWithNothingInstalled() throws Exception {
    JarRun demo = JarRun.run("demo", "--workers", "3", "--seconds", "2");

    assertThat(demo.output()).contains("(embedded)", "fencing tokens", "each larger than the one before",
        "no update lost, mutual exclusion held");
    assertThat(demo.exitCode()).isZero();
  }

  @Test
  void runsOnRedis() throws Exception {
    JarRun demo = JarRun.run("demo", "--backend", redis.uri(), "--workers", "4", "--seconds", "2");

    assertThat(demo.output()).contains(redis.uri(), "no update lost, mutual exclusion held");
    assertThat(demo.exitCode()).isZero();
  }

  @Test
  void badNumbersAreUsageErrors() throws Exception {
    JarRun demo = JarRun.run("demo", "--workers", "0");

    assertThat(demo.output()).contains("--workers");
    assertThat(demo.exitCode()).isEqualTo(ExitCodes.USAGE);
  }
}
