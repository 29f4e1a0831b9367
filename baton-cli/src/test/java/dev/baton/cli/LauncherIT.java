package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bin/baton} run from the repository's root, as the README tells a newcomer to. The jar is built by the
 * time failsafe runs, so the launcher runs it without building it again.
 */
@Timeout(60)
class LauncherIT {

  @Test
  void runsTheDemoFromTheRepositoryRoot() throws InterruptedException {
    try (BatonProcess demo = BatonProcess.startLauncher("demo", "--seconds", "2", "--workers", "2")) {
      assertThat(demo.awaitExit()).as(demo.output()).isZero();
      assertThat(demo.output()).as("the jar is up to date: no build").doesNotContain("building the command")
          .containsPattern("(?m)^counter +[\\d,]+ = [\\d,]+ acquisitions: no update lost, mutual exclusion held$");
    }
  }
}
