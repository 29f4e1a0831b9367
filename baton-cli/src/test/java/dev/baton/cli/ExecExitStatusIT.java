package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.embedded.internal.Loopback;
import dev.baton.redis.RedisLockClient;
import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Each exit status of {@code baton exec}, provoked for real against a Redis server. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class ExecExitStatusIT {
  /** A command that stays after SIGTERM, and says so, until SIGKILL ends it. */
  private static final String IGNORES_SIGTERM =
      "trap 'echo TERM ignored' TERM; echo running; while :; do sleep 0.1; done";

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @TempDir
  Path dir;

  @Test
  void passesTheCommandsOwnStatusThrough() throws InterruptedException {
    assertThat(exec("own-status", "sh", "-c", "exit 3")).isEqualTo(3);
    assertThat(exec("own-status", "true")).isZero();
  }

  @Test
  void theCommandNeedsNoDoubleDashWhenItComesAfterTheOptions() throws InterruptedException {
    assertThat(BatonProcess.run(dir, "exec", "--backend", redis.uri(), "--key", "no-dash", "sh", "-c", "exit 4"))
        .isEqualTo(4);
  }

  @Test
  void theWordsAfterTheKeyAreTheCommandsOwnAsWithFlock() throws InterruptedException {
    assertThat(BatonProcess.run(dir, "exec", "-b", redis.uri(), "key-first", "sh", "-c", "exit 5")).isEqualTo(5);
    assertThat(BatonProcess.run(dir, "exec", "-b", redis.uri(), "key-first", "--", "sh", "-c", "exit 6"))
        .isEqualTo(6);
  }

  @Test
  void exits75WhenATestClientHoldsTheLock() throws InterruptedException {
    try (LockClient client = RedisLockClient.connect(redis.uri());
        Lease held = client.lock("held-by-client").acquire(Duration.ofSeconds(5));
        BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "held-by-client",
            "--wait", "200ms", "--", "touch", "ran")) {
      assertThat(baton.awaitExit()).isEqualTo(ExitCodes.NOT_ACQUIRED);
      assertThat(baton.output()).contains("baton: Lock 'held-by-client'", "was not acquired within 200 ms");
      assertThat(dir.resolve("ran")).doesNotExist();
    }
  }

  @Test
  void exits75WhenAnotherExecHoldsTheLockAndWait0TriesOnce() throws InterruptedException {
    try (BatonProcess holder = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "held-by-exec",
        "--", "sh", "-c", "echo holding; exec sleep 30")) {
      holder.awaitLine("holding");
      assertThat(BatonProcess.run(dir, "exec", "--backend", redis.uri(), "--key", "held-by-exec", "--wait", "0",
          "--", "touch", "ran")).isEqualTo(ExitCodes.NOT_ACQUIRED);
      assertThat(BatonProcess.run(dir, "exec", "-b", redis.uri(), "-n", "held-by-exec", "touch", "ran"))
          .as("-n, flock's nonblock").isEqualTo(ExitCodes.NOT_ACQUIRED);
      assertThat(BatonProcess.run(dir, "exec", "-b", redis.uri(), "-w", "0.2", "-E", "3", "held-by-exec", "touch",
          "ran")).as("-E, flock's conflict exit code, after 0.2 s").isEqualTo(3);
      assertThat(dir.resolve("ran")).doesNotExist();
    }
  }

  @Test
  void exits69WhenTheBackendCannotBeReached() throws InterruptedException {
    String closedPort = "redis://127.0.0.1:" + Loopback.freePort();
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", closedPort, "--key", "k", "--", "true")) {
      assertThat(baton.awaitExit()).isEqualTo(ExitCodes.UNAVAILABLE);
      assertThat(baton.output()).startsWith("baton: Cannot connect to Redis at 127.0.0.1:");
    }
  }

  @Test
  void exits74AfterStoppingTheCommandAndWhatItStartedWhenTheLockIsLost() throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "lost",
        "--ttl", "1s", "--", "sh", "-c", "sleep 30 & echo running; wait")) {
      baton.awaitLine("running");
      List<ProcessHandle> commandAndSleep = baton.commandTree();
      assertThat(redis.command("DEL", "baton:lock:lost")).isEqualTo(1L);
      assertThat(baton.awaitExit()).isEqualTo(ExitCodes.LOCK_LOST);
      assertThat(baton.output()).contains("baton: lost the lock 'lost' while the command ran (ENTRY_REMOVED)");
      assertThat(commandAndSleep).hasSize(2).noneMatch(ProcessHandle::isAlive);
    }
  }

  @Test
  void sigkillsACommandThatIgnoresSigtermOnceKillAfterHasPassed() throws InterruptedException {
    Duration killAfter = Duration.ofSeconds(2);
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "stubborn",
        "--ttl", "1s", "--kill-after", killAfter.toSeconds() + "s", "--", "sh", "-c", IGNORES_SIGTERM)) {
      baton.awaitLine("running");
      List<ProcessHandle> command = baton.command();
      assertThat(command).as("the shell baton runs").hasSize(1);
      long lostAt = System.nanoTime();
      assertThat(redis.command("DEL", "baton:lock:stubborn")).isEqualTo(1L);
      baton.awaitLine("TERM ignored");
      assertThat(command.get(0).isAlive()).as("the command after SIGTERM").isTrue();
      assertThat(baton.awaitExit()).isEqualTo(ExitCodes.LOCK_LOST);
      assertThat(Duration.ofNanos(System.nanoTime() - lostAt)).as("from the loss to baton's exit")
          .isGreaterThanOrEqualTo(killAfter);
      assertThat(baton.output()).contains("baton: lost the lock 'stubborn' while the command ran (ENTRY_REMOVED);"
          + " stopped it (its status: 137).");
      assertThat(command.get(0).isAlive()).as("the command after SIGKILL").isFalse();
    }
  }

  @Test
  void exits64ForBadUsage() throws InterruptedException {
    assertThat(BatonProcess.run(dir, "exec", "--backend", redis.uri(), "--key", "k", "--bogus", "--", "true"))
        .as("unknown option").isEqualTo(ExitCodes.USAGE);
    assertThat(BatonProcess.run(dir, "exec", "--backend", redis.uri(), "--key", "k", "--"))
        .as("no command").isEqualTo(ExitCodes.USAGE);
    assertThat(BatonProcess.run(dir, "exec", "--backend", redis.uri()))
        .as("no key").isEqualTo(ExitCodes.USAGE);
    assertThat(BatonProcess.run(dir, "exec", "--backend", redis.uri(), "--key", "k", "k", "--", "true"))
        .as("the key twice").isEqualTo(ExitCodes.USAGE);
    assertThat(BatonProcess.run(dir, "exec", "--backend", redis.uri(), "-n", "-w", "1", "k", "true"))
        .as("-n and -w").isEqualTo(ExitCodes.USAGE);
    assertThat(BatonProcess.run(dir, "exec", "--backend", redis.uri(), "-w", "-1", "k", "true"))
        .as("negative duration").isEqualTo(ExitCodes.USAGE);
    assertThat(BatonProcess.run(dir, "exec", "--backend", redis.uri(), "--key", "k", "--wait", "10x", "--", "true"))
        .as("malformed duration").isEqualTo(ExitCodes.USAGE);
    assertThat(BatonProcess.run(dir, "exec", "--key", "k", "--", "true"))
        .as("no backend").isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void exits127WhenTheCommandDoesNotExist() throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "k", "--",
        "no-such-command-here")) {
      assertThat(baton.awaitExit()).isEqualTo(127);
      assertThat(baton.output()).startsWith("baton: cannot run 'no-such-command-here'");
    }
  }

  @Test
  void helpShowsTheCrontabExample() throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--help")) {
      assertThat(baton.awaitExit()).isZero();
      assertThat(baton.output()).contains("    BATON_BACKEND=redis://10.0.0.5:6379\n"
          + "    0 3 * * * /opt/baton/bin/baton exec -n nightly-report /opt/jobs/report.sh");
    }
  }

  private int exec(String key, String... command) throws InterruptedException {
    List<String> args = new ArrayList<>(List.of("exec", "--backend", redis.uri(), "--key", key, "--"));
    args.addAll(List.of(command));
    return BatonProcess.run(dir, args.toArray(String[]::new));
  }
}
