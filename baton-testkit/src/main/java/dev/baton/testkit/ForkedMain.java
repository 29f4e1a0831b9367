package dev.baton.testkit;

import dev.baton.servers.ProcessOutput;
import dev.baton.servers.Processes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A main class of the test kit in a JVM of its own, on this JVM's class path: it answers one line once it holds what
 * it was asked to, then runs until {@link #kill()} ends it the way a crash would (SIGKILL, no release, no more
 * renewals). Its mains share that protocol through {@link LockHolderMain#serve}. Killed at JVM exit if a test forgot
 * it.
 */
final class ForkedMain implements AutoCloseable {
  private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

  private final Process process;
  private final Thread exitHook;
  private final ProcessOutput output;
  private final String answer;

  private ForkedMain(Process process, Thread exitHook, ProcessOutput output, String answer) {
    this.process = process;
    this.exitHook = exitHook;
    this.output = output;
    this.answer = answer;
  }

  /**
   * Starts {@code main} with {@code args} and waits up to {@code within} for its answer, the line that starts with
   * {@code word}.
   *
   * @param doing what the child was asked to do, for the message when it did not: {@code hold 'orders/42'}
   * @throws IllegalStateException if the child failed or did not answer in time; the message quotes its output,
   *     and the child is killed
   */
  static ForkedMain start(Class<?> main, List<String> args, String word, Duration within, String doing)
      throws InterruptedException {
    Process process = launch(main, args);
    String name = main.getSimpleName() + "-" + process.pid();
    Thread exitHook = Processes.killOnExit(process, name);
    ProcessOutput output = ProcessOutput.follow(process, name + "-output");
    Optional<String> answer;
    try {
      answer = output.awaitLine(
          line -> line.startsWith(word) || line.startsWith(LockHolderMain.ERROR + " "), within);
    } catch (InterruptedException e) {
      kill(process, exitHook);
      throw e;
    }
    if (answer.isEmpty() || !answer.get().startsWith(word)) {
      kill(process, exitHook);
      throw new IllegalStateException("The child JVM did not " + doing + " within " + within.toSeconds()
          + " s. Its last output:\n" + output.tail());
    }
    return new ForkedMain(process, exitHook, output, answer.get().substring(word.length()).trim());
  }

  /** What the child's answer says after its first word. */
  String answer() {
    return answer;
  }

  /**
   * Waits up to {@code within} for the child's line that starts with {@code word}, after its answer: what the line
   * says after the word.
   *
   * @throws IllegalStateException if the child failed, ended or did not print it in time; the message quotes its
   *     output
   */
  String awaitLine(String word, Duration within, String doing) throws InterruptedException {
    Optional<String> line = output.awaitLine(
        each -> each.startsWith(word) || each.startsWith(LockHolderMain.ERROR + " "), within);
    if (line.isEmpty() || !line.get().startsWith(word)) {
      throw new IllegalStateException("The child JVM did not " + doing + " within " + within.toSeconds()
          + " s. Its last output:\n" + output.tail());
    }
    return line.get().substring(word.length()).trim();
  }

  /** The child's last lines of output, for a message that says what went wrong in it. */
  String lastOutput() {
    return output.tail();
  }

  /** The child's process id. */
  long pid() {
    return process.pid();
  }

  /** Whether the child still runs. */
  boolean isAlive() {
    return process.isAlive();
  }

  /** Kills the child with SIGKILL and waits until it is gone. Does nothing if it already is. */
  void kill() {
    kill(process, exitHook);
  }

  /** Same as {@link #kill()}. */
  @Override
  public void close() {
    kill();
  }

  private static Process launch(Class<?> main, List<String> args) {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>(List.of(
        java.toString(), "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(args);
    try {
      return new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not start a child JVM with " + java + ": " + e.getMessage(), e);
    }
  }

  private static void kill(Process process, Thread exitHook) {
    Processes.kill(process, KILL_TIMEOUT, "The child JVM");
    Processes.forgetOnExit(exitHook);
  }
}
