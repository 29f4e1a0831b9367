package dev.baton.cli;

import dev.baton.cli.SignalForwarding.Forwarded;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The command {@code baton exec} runs under the lock, started under the {@linkplain Supervisor supervisor} with
 * baton's stdin, stdout and stderr, in a process group of its own that everything it starts joins. It is passed
 * the signals baton receives; it is stopped with that whole group when the lock is lost; processes of the group
 * still running when it ends are stopped before baton goes on (and releases the lock); and the supervisor stops
 * the group when baton dies, so that nothing the command started runs on unprotected.
 */
final class ChildProcess {
  private static final Duration KILL_COMMAND_TIMEOUT = Duration.ofSeconds(5);

  private final Process supervisor;
  private final ProcessGroup group;
  private final Duration grace;

  private ChildProcess(Process supervisor, Duration grace) {
    this.supervisor = supervisor;
    this.group = new ProcessGroup(supervisor.pid());
    this.grace = grace;
  }

  /**
   * Starts {@code command} with baton's environment, without the variables {@code removed}, plus
   * {@code added}; {@code grace} is the time its processes get between SIGTERM and SIGKILL when baton stops them,
   * {@code graceAfterDeath} when the supervisor does because baton died.
   * Call it from the thread that runs {@code baton exec}: the supervisor stops the command when that thread ends.
   *
   * @throws CannotRunException if the command is not found or not executable, or the supervisor cannot be run
   */
  static ChildProcess start(List<String> command, Map<String, String> added, Collection<String> removed,
      Duration grace, Duration graceAfterDeath) throws CannotRunException {
    Executable.check(command.get(0));
    ProcessBuilder builder = new ProcessBuilder(Supervisor.commandLine(command, graceAfterDeath)).inheritIO();
    builder.environment().keySet().removeAll(removed);
    builder.environment().putAll(added);
    try {
      return new ChildProcess(builder.start(), grace);
    } catch (IOException e) {
      throw new CannotRunException("cannot run '" + command.get(0) + "': baton exec runs it under " + Supervisor.NEEDS
          + ", so that it ends if baton dies, and they cannot be run here (" + e.getMessage() + ")",
          ExitCodes.CANNOT_RUN);
    }
  }

  /**
   * Passes on a signal baton received, through the supervisor: SIGTERM with {@link Process#destroy()}, the others
   * with kill(1).
   */
  void signal(Forwarded signal) {
    if (!supervisor.isAlive()) {
      return;
    }
    if (signal == Forwarded.TERM) {
      supervisor.destroy();
      return;
    }
    try {
      Process kill = new ProcessBuilder("sh", "-c", "kill -s " + signal.name() + " " + supervisor.pid())
          .inheritIO().start();
      kill.waitFor(KILL_COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (IOException e) {
      supervisor.destroy();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Sends SIGTERM to the command and every process it started, and SIGKILL to those still alive after the grace.
   * Returns at once.
   */
  void stop() {
    group.terminate();
    CompletableFuture.delayedExecutor(grace.toMillis(), TimeUnit.MILLISECONDS).execute(group::kill);
  }

  /**
   * Waits until the command has ended, then stops what is left of its process group: processes it left
   * running, or all of them if the supervisor was killed.
   */
  Exit waitFor() throws InterruptedException {
    int status = supervisor.waitFor();
    return new Exit(status, group.stop(grace));
  }

  /**
   * How the command ended.
   *
   * @param status the command's exit status; 128 + N if signal N killed it, as shells report it
   * @param leftRunning how many processes of its group were still running after it, and were stopped
   */
  record Exit(int status, int leftRunning) {}
}
