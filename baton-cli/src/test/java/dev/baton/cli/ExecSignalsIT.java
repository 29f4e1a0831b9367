package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.baton.testkit.RedisServerExtension;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Signals to {@code baton exec}: passed to the command, and the lock released after; SIGKILL frees it by its ttl. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class ExecSignalsIT {
  private static final int SIGINT = 2;
  private static final String SLEEP = "echo running; exec sleep 30";
  /**
   * What the next holder may take beyond the ttl: its JVM's start and connection (which overlap the wait, but
   * on a busy machine can outlast it), starting its command and the test reading the command's line.
   */
  private static final Duration START_SLACK = Duration.ofSeconds(2);

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @TempDir
  Path dir;

  @Test
  void sigtermEndsTheCommandAndBatonExitsWithItsStatusThenReleasesTheLock() throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "term",
        "--", "sh", "-c", SLEEP)) {
      baton.awaitLine("running");
      baton.process().destroy();
      assertThat(baton.awaitExit()).as("128 + SIGTERM").isEqualTo(143);
    }
    assertThat(tryOnce("term")).isZero();
  }

  @Test
  void sigintIsPassedToTheCommandThenTheLockIsReleased() throws Exception {
    assumeFalse(ignoredHere(SIGINT), "SIGINT is ignored in this JVM, so baton inherits it ignored");
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "int",
        "--", "sh", "-c", SLEEP)) {
      baton.awaitLine("running");
      Process kill = new ProcessBuilder("kill", "-s", "INT", Long.toString(baton.process().pid())).inheritIO().start();
      assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(baton.awaitExit()).as("128 + SIGINT").isEqualTo(130);
    }
    assertThat(tryOnce("int")).isZero();
  }

  /**
   * The lock of a baton killed with SIGKILL stays at the store, and is free again within its ttl: the next
   * holder, started right after the kill, gets it no later than the ttl after the kill plus {@link #START_SLACK}.
   * This is a correctness bound (the lock must not stay taken longer than its ttl), not a speed claim.
   */
  @Test
  void aKilledBatonFreesTheLockWithinItsTtl() throws InterruptedException {
    Duration ttl = Duration.ofSeconds(3);
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "killed",
        "--ttl", ttl.toSeconds() + "s", "--", "sh", "-c", SLEEP)) {
      baton.awaitLine("running");
      List<ProcessHandle> command = baton.descendants();
      long killedAt = System.nanoTime();
      baton.process().destroyForcibly();
      command.forEach(ProcessHandle::destroyForcibly);
      try (BatonProcess next = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "killed",
          "--wait", "10s", "--", "echo", "acquired")) {
        assertThat(baton.awaitExit()).as("128 + SIGKILL").isEqualTo(137);
        assertThat(redis.command("EXISTS", "baton:lock:killed")).as("left behind until its ttl").isEqualTo(1L);
        next.awaitLine("acquired");
        Duration killToNextHolder = Duration.ofNanos(System.nanoTime() - killedAt);
        assertThat(killToNextHolder).as("from the SIGKILL to the next holder's command")
            .isLessThanOrEqualTo(ttl.plus(START_SLACK));
        assertThat(next.awaitExit()).isZero();
      }
    }
  }

  private int tryOnce(String key) throws InterruptedException {
    return BatonProcess.run(dir, "exec", "--backend", redis.uri(), "--key", key, "--wait", "0", "--", "true");
  }

  /** Whether this JVM ignores the signal (and so the processes it starts do too): Linux's SigIgn mask. */
  private static boolean ignoredHere(int signal) throws IOException {
    String mask = Files.readAllLines(Path.of("/proc/self/status")).stream()
        .filter(line -> line.startsWith("SigIgn:")).findFirst().orElse("SigIgn: 0").substring(7).trim();
    return new BigInteger(mask, 16).testBit(signal - 1);
  }
}
