package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.testkit.RedisServerExtension;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command of {@code baton exec} runs no longer than baton holds the lock: a baton killed with SIGKILL takes
 * its command and the command's own children with it, before the lock can pass to the next holder; a killed
 * supervisor, or processes the command leaves behind, are stopped before baton releases the lock.
 *
 * <p>The jobs are {@code job.sh} (a test resource): each appends its start and end to the file {@code log}, so
 * that the order of events across processes can be read there.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ExecSupervisionIT {
  /** How long the processes of a job may take to go once they are told to. */
  private static final Duration GONE_WITHIN = Duration.ofSeconds(20);

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @TempDir
  Path dir;

  /** Every process a test's jobs started, killed after the test if still there (they would outlive baton). */
  private final List<ProcessHandle> started = new ArrayList<>();

  @AfterEach
  void killWhatIsLeft() {
    started.forEach(ProcessHandle::destroyForcibly);
  }

  @Test
  void aKilledBatonTakesItsCommandAndTheCommandsChildrenWithItBeforeTheNextHolderStarts() throws Exception {
    try (BatonProcess first = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "orphan",
        "--ttl", "2s", "--", "sh", job(), "first")) {
      first.awaitLine("first running");
      ProcessHandle command = pid("first.command.pid");
      ProcessHandle grandchild = pid("first.grandchild.pid");
      pid("first.sleep.pid");
      first.process().destroyForcibly();
      try (BatonProcess second = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "orphan",
          "--wait", "30s", "--", "sh", "-c", "echo second start >> log; echo second running")) {
        await("the command and its child, after baton's SIGKILL").atMost(GONE_WITHIN)
            .until(() -> !command.isAlive() && !grandchild.isAlive());
        second.awaitLine("second running");
        assertThat(second.awaitExit()).as(second.output()).isZero();
      }
      List<String> log = Files.readAllLines(dir.resolve("log"));
      assertThat(log).as("the log: both of the first job's processes end before the second starts").hasSize(5);
      assertThat(log.subList(0, 2)).containsExactlyInAnyOrder("first command start", "first grandchild start");
      assertThat(log.subList(2, 4)).containsExactlyInAnyOrder("first command end", "first grandchild end");
      assertThat(log.get(4)).isEqualTo("second start");
    }
  }

  @Test
  void aKilledBatonsCommandThatIgnoresSigtermIsKilledAfterKillAfter() throws Exception {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "stubborn",
        "--kill-after", "1s", "--", "sh", "-c", "trap '' TERM; echo $$ > stubborn.pid; echo running;"
            + " while :; do sleep 1; done")) {
      baton.awaitLine("running");
      ProcessHandle command = pid("stubborn.pid");
      baton.process().destroyForcibly();
      await("the command that ignores SIGTERM, after baton's SIGKILL").atMost(GONE_WITHIN)
          .until(() -> !command.isAlive());
    }
  }

  /** However long --kill-after is, a dead baton's command is gone before its lock can pass on (a third of the ttl). */
  @Test
  void aKilledBatonsStubbornCommandIsGoneBeforeTheNextHolderWhateverKillAfterSays() throws Exception {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "stubborn-long",
        "--ttl", "3s", "--kill-after", "1h", "--", "sh", "-c", "trap '' TERM; echo $$ > stubborn.pid; echo running;"
            + " while :; do sleep 1; done")) {
      baton.awaitLine("running");
      ProcessHandle command = pid("stubborn.pid");
      baton.process().destroyForcibly();
      try (BatonProcess next = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "stubborn-long",
          "--wait", "30s", "--", "sh", "-c", "if kill -0 " + command.pid() + " 2>/dev/null; then echo beside it;"
              + " else echo alone; fi")) {
        assertThat(next.awaitExit()).as(next.output()).isZero();
        assertThat(next.output()).as("the next holder's command").isEqualTo("alone");
      }
    }
  }

  @Test
  void aKilledSupervisorsCommandIsStoppedBeforeBatonReleasesTheLock() throws Exception {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "supervisor",
        "--", "sh", job(), "job")) {
      baton.awaitLine("job running");
      ProcessHandle command = pid("job.command.pid");
      ProcessHandle grandchild = pid("job.grandchild.pid");
      pid("job.sleep.pid");
      List<ProcessHandle> children = baton.process().children().toList();
      assertThat(children).as("baton's own child").hasSize(1);
      children.get(0).destroyForcibly();
      assertThat(baton.awaitExit()).as(baton.output()).isEqualTo(137);
      assertThat(command.isAlive()).as("the command when baton has exited").isFalse();
      assertThat(grandchild.isAlive()).as("the command's child when baton has exited").isFalse();
    }
  }

  @Test
  void whatTheCommandLeavesRunningIsStoppedBeforeBatonReleasesTheLock() throws Exception {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "leftover",
        "--", "sh", "-c", "sleep 1000 & echo $! > leftover.pid")) {
      assertThat(baton.awaitExit()).as(baton.output()).isZero();
      assertThat(alive("leftover.pid")).as("the process the command left, when baton has exited").isFalse();
      assertThat(baton.output()).contains("baton: the command left 1 process running; stopped it before"
          + " releasing the lock 'leftover'.");
    }
  }

  private static String job() throws URISyntaxException {
    return Path.of(ExecSupervisionIT.class.getResource("job.sh").toURI()).toString();
  }

  /** The running process whose pid a job wrote to {@code file}, remembered to be killed after the test. */
  private ProcessHandle pid(String file) throws IOException {
    Optional<ProcessHandle> handle = handle(file);
    assertThat(handle).as("the process in " + file).isPresent();
    return handle.get();
  }

  /** Whether the process whose pid a job wrote to {@code file} is still running. */
  private boolean alive(String file) throws IOException {
    return handle(file).map(ProcessHandle::isAlive).orElse(false);
  }

  private Optional<ProcessHandle> handle(String file) throws IOException {
    Optional<ProcessHandle> handle = ProcessHandle.of(Long.parseLong(Files.readString(dir.resolve(file)).strip()));
    handle.ifPresent(started::add);
    return handle;
  }
}
