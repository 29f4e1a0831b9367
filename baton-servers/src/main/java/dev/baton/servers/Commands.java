package dev.baton.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Runs a short command, such as a server's own client or setup tool, to its end within a bound. */
final class Commands {
  /** How long a command that overran its bound may take to die, and its output to be read after its exit. */
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  /** How a command run to its end ended: whether it exited with 0, and its last output. */
  record Completion(boolean succeeded, String output) {}

  private Commands() {}

  /** Runs a command to its end, at most {@code timeout}; whether it exited with 0, and its last output. */
  static Completion runToEnd(ProcessBuilder builder, Duration timeout, String what) {
    Process process;
    try {
      process = builder.redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not run " + builder.command().get(0) + ": " + e.getMessage(), e);
    }
    Thread hook = Processes.killOnExit(process, what);
    ProcessOutput output = ProcessOutput.follow(process, what + "-output");
    boolean exited;
    try {
      exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exited = false;
    }
    if (!exited) {
      Processes.kill(process, STOP_TIMEOUT, what); // after an exit this would close the output before it is read
    }
    Processes.forgetOnExit(hook);
    return new Completion(exited && process.exitValue() == 0, output.tailAtEnd(STOP_TIMEOUT));
  }
}
