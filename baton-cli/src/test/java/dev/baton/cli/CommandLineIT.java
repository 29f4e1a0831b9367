package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.embedded.internal.Loopback;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the real jar answers a command line: help on every command, errors in one line, and a stack trace only
 * when baton itself was given {@code --verbose}.
 */
@Timeout(60)
class CommandLineIT {
  @TempDir
  Path dir;

  @Test
  void everyCommandHasHelp() throws InterruptedException {
    for (String command : new String[] {"exec", "demo", "status", "list", "revoke", "serve", "torture", "help"}) {
      try (BatonProcess baton = BatonProcess.start(dir, command, "--help")) {
        assertThat(baton.awaitExit()).as("baton %s --help", command).isZero();
        assertThat(baton.output()).contains("Usage: baton " + command, "--help", "Examples:");
      }
    }
  }

  @Test
  void aUsageErrorIsOneLineWithTheHelpToRead() throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--", "true")) {
      assertThat(baton.awaitExit()).isEqualTo(ExitCodes.USAGE);
      assertThat(baton.output()).isEqualTo("baton exec: missing CMD (the command to run, after KEY): write baton exec"
          + " KEY CMD [ARG...]; see 'baton exec --help'");
    }
  }

  @Test
  void batonAloneIsAUsageError() throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir)) {
      assertThat(baton.awaitExit()).isEqualTo(ExitCodes.USAGE);
      assertThat(baton.output()).startsWith("Usage: baton [-hvV] [COMMAND]");
    }
  }

  @Test
  void theCommandsOwnDashVLeavesBatonQuiet() throws InterruptedException {
    assertThat(unreachable("--", "grep", "-v", "x")).as("after --").doesNotContain("\tat ").doesNotContain("\n");
    assertThat(unreachable("grep", "--verbose", "x")).as("after the command's first word").doesNotContain("\n");
  }

  @Test
  void batonsOwnVerboseShowsTheStackTrace() throws InterruptedException {
    assertThat(unreachable("-v", "--", "grep", "-v", "x")).contains("\n\tat ", "BackendUnavailableException");
  }

  /** Runs {@code baton exec} against a closed port with these words after its key, and returns what it printed. */
  private String unreachable(String... rest) throws InterruptedException {
    String[] args = new String[4 + rest.length];
    args[0] = "exec";
    args[1] = "--backend=redis://127.0.0.1:" + Loopback.freePort();
    args[2] = "--key";
    args[3] = "quiet";
    System.arraycopy(rest, 0, args, 4, rest.length);
    try (BatonProcess baton = BatonProcess.start(dir, args)) {
      assertThat(baton.awaitExit()).isEqualTo(ExitCodes.UNAVAILABLE);
      assertThat(baton.output()).startsWith("baton: Cannot connect to Redis at 127.0.0.1:");
      return baton.output();
    }
  }
}
