package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import dev.baton.embedded.internal.WorkDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One life of a database server this package started (PostgreSQL, MariaDB), from its start to its stop: the process,
 * its output, its work directory and the hook that kills it if the JVM exits first. {@link #launch} starts one on a
 * port and waits until it says it is ready; what stops it, and when its directory goes, is its launcher's.
 *
 * @param process the server's process
 * @param output its output, followed
 * @param dir its work directory, with its data
 * @param exitHook the shutdown hook that kills it
 */
record ServerRun(Process process, ProcessOutput output, Path dir, Thread exitHook) {
  /** What a server that lost the race for its port says. */
  private static final String PORT_TAKEN = "Address already in use";
  /** Free ports tried at the most: another process may take one between its choice and the server's start. */
  private static final int PORT_ATTEMPTS = 5;

  /**
   * A server started on a free port.
   *
   * @param port the port
   * @param run the server's run
   */
  record OnPort(int port, ServerRun run) {}

  /** How a launcher starts its server with the data in a directory on a port: {@link #launch}, as it sets it up. */
  @FunctionalInterface
  interface Launch {
    /** The server of the data in {@code dir} on {@code port}; empty if the port turned out to be taken. */
    Optional<ServerRun> on(Path dir, int port);
  }

  /** How a launcher stops its server's process, leaving its directory. */
  @FunctionalInterface
  interface ShutDown {
    /** Stops {@code run}'s process within a bound and forgets its exit hook. */
    void shutDown(ServerRun run);
  }

  /**
   * Runs {@code command} in {@code dir}, as {@code name}, and waits up to {@code timeout} for a line of its output
   * that holds {@code ready}; empty, the process stopped by {@code shutDown}, if the port turned out to be taken.
   *
   * @param server the server as messages name it, e.g. {@code PostgreSQL}
   * @param executable where it was found, which messages name too
   * @throws IllegalStateException if it did not become ready (the message quotes its output) or the wait was
   *     interrupted; the process is stopped, the directory left to the caller
   */
  static Optional<ServerRun> launch(String server, Path executable, List<String> command, Path dir, String name,
      int port, String ready, Duration timeout, ShutDown shutDown) {
    Process process;
    try {
      process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not run " + command.get(0) + ": " + e.getMessage(), e);
    }
    ServerRun started = new ServerRun(process, ProcessOutput.follow(process, name + "-output"), dir,
        Processes.killOnExit(process, name));
    boolean isReady;
    try {
      isReady = started.output().awaitLine(line -> line.contains(ready), timeout).isPresent();
    } catch (InterruptedException e) {
      shutDown.shutDown(started);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while " + server + " was starting on port " + port, e);
    }
    if (isReady) {
      return Optional.of(started);
    }
    String output = started.output().tail();
    shutDown.shutDown(started);
    if (output.contains(PORT_TAKEN)) {
      return Optional.empty();
    }
    throw new IllegalStateException(server + " (" + executable + ") did not say \"" + ready + "\" on port " + port
        + " within " + timeout.toSeconds() + " s. Its last output:\n" + output);
  }

  /**
   * Starts a server on a free port, with new data ({@code newDir}) for each port tried, up to {@link #PORT_ATTEMPTS}
   * of them; the data of a try that failed is deleted.
   *
   * @throws IllegalStateException if each port tried was taken, or as {@code launch} throws
   */
  static OnPort onFreePort(String server, Supplier<Path> newDir, Launch launch) {
    for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
      int candidate = Loopback.freePort();
      Optional<ServerRun> started = launchOrDelete(server, newDir.get(), candidate, launch);
      if (started.isPresent()) {
        return new OnPort(candidate, started.get());
      }
    }
    throw new IllegalStateException(server + " found each of " + PORT_ATTEMPTS
        + " free ports taken by the time it started; is something grabbing loopback ports?");
  }

  /**
   * Starts a server again on the data in {@code dir} and the port it had, after it stopped; its data is deleted if it
   * cannot.
   *
   * @throws IllegalStateException if another process has taken the port, or as {@code launch} throws
   */
  static ServerRun relaunch(String server, Path dir, int port, Launch launch) {
    return launchOrDelete(server, dir, port, launch).orElseThrow(() -> new IllegalStateException("Cannot start "
        + server + " again on port " + port + ": another process has taken it."));
  }

  /** {@code launch} on {@code dir} and {@code port}; the directory is deleted unless the server started. */
  private static Optional<ServerRun> launchOrDelete(String server, Path dir, int port, Launch launch) {
    Optional<ServerRun> started;
    try {
      started = launch.on(dir, port);
    } catch (RuntimeException e) {
      WorkDirs.delete(dir, server);
      throw e;
    }
    if (started.isEmpty()) {
      WorkDirs.delete(dir, server);
    }
    return started;
  }
}
