package dev.baton.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One running {@code etcd} process: its output read on a daemon thread, a shutdown hook that kills it if the
 * JVM exits first, and stopping by its own pid within a bound.
 */
final class EtcdProcess {
  /**
   * What etcd logs once it serves clients (it has joined the cluster through a leader): etcd 3.4 with the zap
   * logger says the second (the fourth over TLS), 3.4 with capnslog and 3.5 also say the first or third.
   */
  private static final List<String> READY = List.of("ready to serve client requests",
      "serving client traffic insecurely", "serving insecure client requests", "serving client traffic securely");
  private static final String PORT_TAKEN = "address already in use";
  private static final Duration GIVE_UP_GRACE = Duration.ofSeconds(5);

  private final Process process;
  private final ProcessOutput output;
  private final Thread exitHook;
  private final String name;

  private EtcdProcess(Process process, String name) {
    this.process = process;
    this.name = name;
    this.output = ProcessOutput.follow(process, name + "-output");
    this.exitHook = Processes.killOnExit(process, name);
  }

  /**
   * Runs {@code command} in {@code workDir}, with standard error merged into the output and without the
   * caller's {@code ETCD_*} variables (etcd refuses to start when one shadows a flag).
   *
   * @param name what the process is, for thread names and messages, e.g. {@code etcd-m0}
   */
  static EtcdProcess launch(List<String> command, Path workDir, String name) {
    ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true);
    builder.environment().keySet().removeIf(variable -> variable.startsWith("ETCD_"));
    try {
      return new EtcdProcess(builder.start(), name);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not run " + command.get(0) + ": " + e.getMessage(), e);
    }
  }

  /**
   * Waits up to {@code timeout} until etcd says it serves clients.
   *
   * @return true once it serves; false if one of its ports was taken by another process (it has exited, or has
   *     been stopped)
   * @throws IllegalStateException if it exited or was still not serving after {@code timeout} (it is stopped
   *     then; the message quotes its output), or the wait was interrupted
   */
  boolean awaitReady(Duration timeout) {
    Optional<String> line;
    try {
      line = output.awaitLine(text -> READY.stream().anyMatch(text::contains) || text.contains(PORT_TAKEN), timeout);
    } catch (InterruptedException e) {
      kill(GIVE_UP_GRACE);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while " + name + " was starting", e);
    }
    if (line.isPresent() && !line.get().contains(PORT_TAKEN)) {
      return true;
    }
    boolean exited = !process.isAlive();
    String tail = output.tail();
    stop(GIVE_UP_GRACE);
    if (line.isPresent()) {
      return false;
    }
    throw new IllegalStateException(name + " (pid " + process.pid() + ") did not say it serves clients within "
        + timeout.toMillis() + " ms" + (exited ? "; it exited with status " + process.exitValue() : "")
        + ". Its last output:\n" + tail);
  }

  /** Asks etcd to stop (SIGTERM), kills it (SIGKILL) if it has not within {@code grace}, and waits until it is gone. */
  void stop(Duration grace) {
    Processes.terminate(process, grace, name);
    Processes.forgetOnExit(exitHook);
  }

  /** Kills etcd (SIGKILL) and waits up to {@code bound} until it is gone. */
  void kill(Duration bound) {
    Processes.kill(process, bound, name);
    Processes.forgetOnExit(exitHook);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  /** The last lines of its output, for error messages. */
  String tail() {
    return output.tail();
  }
}
