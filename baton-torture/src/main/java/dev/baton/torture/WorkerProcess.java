package dev.baton.torture;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link TortureWorkerMain} JVM seen from the torture: whether it holds now (from what it prints),
 * and the signals the faults send it. Killed at JVM exit if the torture did not stop it.
 */
final class WorkerProcess {
  private static final int OUTPUT_LINES_KEPT = 20;

  private final String name;
  private final Process process;
  private final Path history;
  private final Thread exitHook;
  private final Deque<String> lastLines = new ArrayDeque<>();
  private volatile boolean holding;

  private WorkerProcess(String name, Process process, Path history) {
    this.name = name;
    this.process = process;
    this.history = history;
    this.exitHook = new Thread(process::destroyForcibly, "kill-" + name);
    Runtime.getRuntime().addShutdownHook(exitHook);
    Thread reader = new Thread(this::follow, name + "-output");
    reader.setDaemon(true);
    reader.start();
  }

  static WorkerProcess start(String name, TortureOptions options, int registerPort, Path history) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1", "-Xmx128m",
        "-cp", System.getProperty("java.class.path"), TortureWorkerMain.class.getName(),
        options.factory().getName(), options.target(), options.key(), Long.toString(options.ttl().toMillis()),
        Long.toString(options.waitTime().toMillis()), Long.toString(options.work().toMillis()),
        Integer.toString(registerPort), history.toString(), name, options.primitive().option(),
        Integer.toString(options.permits())));
    try {
      return new WorkerProcess(name, new ProcessBuilder(command).redirectErrorStream(true).start(), history);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start the torture worker " + name + ": " + e.getMessage(), e);
    }
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  Path history() {
    return history;
  }

  boolean isHolding() {
    return holding && process.isAlive();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Sends {@code signal} (e.g. {@code STOP}); false if the process is gone. */
  boolean signal(String signal) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        if (!process.isAlive()) {
          return false;
        }
        throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot run kill -" + signal, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while sending " + signal + " to " + name, e);
    }
  }

  /** SIGKILL, and waits until the process is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
    forget();
  }

  /** Closes its standard input, so that it stops after its current hold; true if it exited within the bound. */
  boolean stop(long boundMillis) throws InterruptedException {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // Already gone.
    }
    boolean exited = process.waitFor(boundMillis, TimeUnit.MILLISECONDS);
    if (!exited) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
    forget();
    return exited;
  }

  synchronized String lastOutput() {
    return String.join("\n", lastLines);
  }

  private void forget() {
    try {
      Runtime.getRuntime().removeShutdownHook(exitHook);
    } catch (IllegalStateException e) {
      // The JVM is exiting: the hook runs anyway, on a process that is gone.
    }
  }

  private void follow() {
    try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith("HELD ")) {
          holding = true;
        } else if (line.equals("FREE")) {
          holding = false;
        } else {
          synchronized (this) {
            lastLines.addLast(line);
            if (lastLines.size() > OUTPUT_LINES_KEPT) {
              lastLines.removeFirst();
            }
          }
        }
      }
    } catch (IOException e) {
      // The process is gone.
    }
  }
}
