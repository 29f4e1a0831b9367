package dev.baton.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** {@code java -jar baton.jar ARGS} as a real process, with its output collected, for process-level tests. */
final class JarRun implements AutoCloseable {
  private final Process process;
  private final StringBuffer seen = new StringBuffer();
  private final CompletableFuture<String> output;

  private JarRun(Process process) {
    this.process = process;
    this.output = CompletableFuture.supplyAsync(this::readAll);
  }

  /** Starts {@code baton ARGS}, its stderr merged into its stdout. */
  static JarRun start(String... args) throws IOException {
    String jar = System.getProperty("baton.jar");
    if (jar == null) {
      throw new IllegalStateException("Run process-level tests with Maven (failsafe sets baton.jar to the built jar).");
    }
    List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-jar", jar));
    command.addAll(List.of(args));
    return new JarRun(new ProcessBuilder(command).redirectErrorStream(true).start());
  }

  /** Runs {@code baton ARGS} to its end, within 60 s. */
  static JarRun run(String... args) throws Exception {
    JarRun run = start(args);
    run.awaitExit();
    return run;
  }

  /** Waits for the exit, within 60 s, and returns the status. */
  int awaitExit() throws InterruptedException {
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("baton did not exit within 60 s");
    }
    return process.exitValue();
  }

  int exitCode() {
    return process.exitValue();
  }

  /** Everything it printed; waits for the process to end. */
  String output() throws Exception {
    return output.get(60, TimeUnit.SECONDS);
  }

  Process process() {
    return process;
  }

  private String readAll() {
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        seen.append(line).append('\n');
      }
    } catch (IOException e) {
      seen.append("(output ended: ").append(e.getMessage()).append(")\n");
    }
    return seen.toString();
  }

  /** What it printed so far, while it runs. */
  String outputSoFar() {
    return seen.toString();
  }

  @Override
  public void close() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }
}
