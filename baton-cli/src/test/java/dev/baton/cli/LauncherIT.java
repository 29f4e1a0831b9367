package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code bin/baton} run from the repository's root, as the README tells a newcomer to. The jar is built by the
 * time failsafe runs, so the launcher runs it without building it again.
 */
@Timeout(60)
class LauncherIT {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Test
  void runsTheDemoFromTheRepositoryRoot() throws InterruptedException {
    try (BatonProcess demo = BatonProcess.startLauncher("demo", "--seconds", "2", "--workers", "2")) {
      assertThat(demo.awaitExit()).as(demo.output()).isZero();
      assertThat(demo.output()).as("the jar is up to date: no build").doesNotContain("building the command")
          .containsPattern("(?m)^counter +[\\d,]+ = [\\d,]+ acquisitions: no update lost, mutual exclusion held$");
    }
  }

  /**
   * The launcher makes a class-data sharing archive once per build of the jar and starts exec with it, the quick
   * compiler and the serial collector: none of which may say a word on the command's output.
   */
  @Test
  void execPrintsOnlyWhatTheCommandPrintsAndSharesItsClassesFromThen() throws Exception {
    Path archive = Path.of(System.getProperty("baton.jar")).resolveSibling("baton.jsa");
    for (int run = 0; run < 2; run++) {
      try (BatonProcess exec = BatonProcess.startLauncher("exec", "--backend", redis.uri(), "--key", "launched",
          "--", "echo", "ran")) {
        assertThat(exec.awaitExit()).as(exec.output()).isZero();
        assertThat(exec.output()).as("run %d", run).isEqualTo("ran");
      }
    }
    assertThat(Files.isRegularFile(archive)).as("the archive " + archive).isTrue();
  }
}
