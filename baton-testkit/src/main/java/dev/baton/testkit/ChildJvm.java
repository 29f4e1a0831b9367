package dev.baton.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@link LockHolderMain} running in its own JVM, holding one lock until {@link #kill()} ends it the way a
 * crash would: SIGKILL, no release, no more renewals. Killed at JVM exit if a test forgot it.
 */
public final class ChildJvm implements AutoCloseable {
  private static final Duration HELD_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

  private final Process process;
  private final Thread exitHook;
  private final long fencingToken;

  private ChildJvm(Process process, Thread exitHook, long fencingToken) {
    this.process = process;
    this.exitHook = exitHook;
    this.fencingToken = fencingToken;
  }

  /**
   * Starts a JVM that connects with {@code factory} to {@code target} and acquires {@code key} with this
   * ttl, and waits up to 20 s until it holds the lock.
   *
   * @throws IllegalStateException if the child failed or did not hold the lock in time; the message quotes
   *     its output, and the child is killed
   */
  public static ChildJvm holdingLock(
      Class<? extends LockClientFactory> factory, String target, String key, Duration ttl)
      throws InterruptedException {
    Process process = start(List.of(factory.getName(), target, key, Long.toString(ttl.toMillis())));
    Thread exitHook = Processes.killOnExit(process, "lock-holder-" + process.pid());
    ProcessOutput output = ProcessOutput.follow(process, "lock-holder-" + process.pid() + "-output");
    Optional<String> answer;
    try {
      answer = output.awaitLine(ChildJvm::isAnswer, HELD_TIMEOUT);
    } catch (InterruptedException e) {
      kill(process, exitHook);
      throw e;
    }
    if (answer.isEmpty() || !answer.get().startsWith(LockHolderMain.HELD + " ")) {
      kill(process, exitHook);
      throw new IllegalStateException("The child JVM did not hold '" + key + "' within " + HELD_TIMEOUT.toSeconds()
          + " s. Its last output:\n" + output.tail());
    }
    return new ChildJvm(process, exitHook, Long.parseLong(answer.get().substring(LockHolderMain.HELD.length() + 1)));
  }

  /** The fencing token of the child's lease. */
  public long fencingToken() {
    return fencingToken;
  }

  /** The child's process id. */
  public long pid() {
    return process.pid();
  }

  /** Whether the child still runs. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** Kills the child with SIGKILL and waits until it is gone. Does nothing if it already is. */
  public void kill() {
    kill(process, exitHook);
  }

  /** Same as {@link #kill()}. */
  @Override
  public void close() {
    kill();
  }

  private static boolean isAnswer(String line) {
    return line.startsWith(LockHolderMain.HELD + " ") || line.startsWith(LockHolderMain.ERROR + " ");
  }

  private static Process start(List<String> args) {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>(List.of(
        java.toString(), "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        LockHolderMain.class.getName()));
    command.addAll(args);
    try {
      return new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not start a child JVM with " + java + ": " + e.getMessage(), e);
    }
  }

  private static void kill(Process process, Thread exitHook) {
    Processes.kill(process, KILL_TIMEOUT, "The lock-holder JVM");
    Processes.forgetOnExit(exitHook);
  }
}
