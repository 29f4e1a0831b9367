package dev.baton.bench.suite;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Worker} JVM with this JVM's class path, or another JVM that speaks its line protocol (the jetcd peer of
 * {@link JetcdCurrentLockContender}), and the protocol to it. Its standard error goes to this JVM's.
 * {@link #close()} ends its input and kills it if it does not exit within 10 s.
 */
final class WorkerProcess implements AutoCloseable {
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);

  private final String name;
  private final Process process;
  private final PrintWriter commands;
  private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();

  private WorkerProcess(String name, Process process) {
    this.name = name;
    this.process = process;
    this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    Thread reader = new Thread(this::readAnswers, "bench-worker-" + process.pid() + "-output");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts a worker JVM on {@code endpoints} with these extra JVM options. */
  static WorkerProcess start(Endpoints endpoints, List<String> jvmOptions) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Worker.class.getName());
    command.addAll(endpoints.toArgs());
    return start("The worker JVM", command);
  }

  /** Starts {@code command}, a JVM that speaks the protocol, which messages call {@code name}. */
  static WorkerProcess start(String name, List<String> command) {
    try {
      return new WorkerProcess(name, new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
          .start());
    } catch (IOException e) {
      throw new UncheckedIOException("Could not start " + name + ": " + e.getMessage(), e);
    }
  }

  /** Sends {@code command} and returns the words of the answer that starts with {@code expected}. */
  String[] call(String command, String expected, Duration timeout) throws InterruptedException {
    send(command);
    return await(expected, timeout);
  }

  /** The process id of the JVM, whose CPU time a harness may read. */
  long pid() {
    return process.pid();
  }

  /** Sends {@code command} without waiting for the answer. */
  void send(String command) {
    commands.println(command);
  }

  /** The words of the next answer, which must start with {@code expected}; other lines on its output are skipped. */
  String[] await(String expected, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String answer = answers.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    while (answer != null && !isAnswer(answer)) {
      answer = answers.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
    if (answer == null) {
      throw new IllegalStateException(name + " did not answer " + expected + " within " + timeout.toSeconds()
          + " s" + (process.isAlive() ? "." : "; it exited with " + process.exitValue() + "."));
    }
    if (!answer.startsWith(expected + " ") && !answer.equals(expected)) {
      throw new IllegalStateException(name + " answered " + answer + " instead of " + expected);
    }
    return answer.split(" ");
  }

  @Override
  public void close() throws InterruptedException {
    commands.close();
    if (!process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }

  private static boolean isAnswer(String line) {
    return line.matches("[A-Z]+( .*)?");
  }

  private void readAnswers() {
    try (BufferedReader reader = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        answers.add(line);
      }
    } catch (IOException e) {
      answers.add("ERROR reading the worker's output: " + e.getMessage());
    }
  }
}
