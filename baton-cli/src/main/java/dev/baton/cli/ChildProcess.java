package dev.baton.cli;

import dev.baton.cli.SignalForwarding.Forwarded;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The command {@code baton exec} runs under the lock: started with baton's stdin, stdout and stderr, passed
 * the signals baton receives, and stopped together with its own child processes when the lock is lost, so
 * that nothing it started keeps running unprotected.
 */
final class ChildProcess {
  private static final Duration KILL_COMMAND_TIMEOUT = Duration.ofSeconds(5);

  private final Process process;
  private volatile List<ProcessHandle> stopping = List.of();

  private ChildProcess(Process process) {
    this.process = process;
  }

  /**
   * Starts {@code command} with baton's environment plus {@code environment}.
   *
   * @throws IOException if it cannot be run, e.g. it does not exist or is not executable
   */
  static ChildProcess start(List<String> command, Map<String, String> environment) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
    builder.environment().putAll(environment);
    return new ChildProcess(builder.start());
  }

  /** Passes on a signal baton received: SIGTERM through {@link Process#destroy()}, the others with kill(1). */
  void signal(Forwarded signal) {
    if (!process.isAlive()) {
      return;
    }
    if (signal == Forwarded.TERM) {
      process.destroy();
      return;
    }
    try {
      Process kill = new ProcessBuilder("sh", "-c", "kill -s " + signal.name() + " " + process.pid())
          .inheritIO().start();
      kill.waitFor(KILL_COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (IOException e) {
      process.destroy();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Sends SIGTERM to the command and every process it started, and SIGKILL to those still alive after
   * {@code grace}. Returns at once.
   */
  void stop(Duration grace) {
    List<ProcessHandle> tree = tree().toList();
    stopping = tree;
    tree.forEach(ProcessHandle::destroy);
    CompletableFuture.delayedExecutor(grace.toMillis(), TimeUnit.MILLISECONDS).execute(
        () -> Stream.concat(tree.stream(), tree()).filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly));
  }

  /**
   * Waits until the command has exited and, if it was {@linkplain #stop stopped}, the processes it had
   * started too.
   *
   * @return the command's exit status; 128 + N if signal N killed it, as shells report it
   */
  int waitFor() throws InterruptedException {
    int status = process.waitFor();
    for (ProcessHandle handle : stopping) {
      handle.onExit().join();
    }
    return status;
  }

  private Stream<ProcessHandle> tree() {
    return Stream.concat(Stream.of(process.toHandle()), process.descendants());
  }
}
