package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * A {@code baton ...} process of a test: {@code java -jar lib/baton-cli-VERSION.jar} of the unpacked distribution
 * that failsafe names in the system property {@code baton.distribution}, the checkout's launcher {@code bin/baton},
 * or any other command line. Its stdout and stderr (and so its command's) are read into lines; every wait is bounded,
 * and {@link #close()} kills it and whatever it started.
 */
final class BatonProcess implements AutoCloseable {
  private static final Duration LINE_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration OUTPUT_END_TIMEOUT = Duration.ofSeconds(5);

  private final Process process;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final List<String> lines = new ArrayList<>();
  private boolean ended;

  private BatonProcess(Process process) {
    this.process = process;
  }

  /** Starts {@code baton ARGS} in {@code dir} with this environment added to the test's, minus BATON_BACKEND. */
  static BatonProcess start(Path dir, Map<String, String> environment, String... args) {
    String version = System.getProperty("baton.version");
    assertThat(version).as("system property baton.version (set by failsafe)").isNotBlank();
    Path jar = distribution().resolve("lib/baton-cli-" + version + ".jar");
    List<String> command = new ArrayList<>(List.of(javaBinary(), "-XX:TieredStopAtLevel=1", "-jar", jar.toString()));
    command.addAll(List.of(args));
    return startCommand(dir, environment, command);
  }

  /** The unpacked distribution the build made, which failsafe names in the system property baton.distribution. */
  static Path distribution() {
    String distribution = System.getProperty("baton.distribution");
    assertThat(distribution).as("system property baton.distribution (set by failsafe)").isNotBlank();
    return Path.of(distribution);
  }

  /**
   * Starts {@code bin/baton ARGS} in the repository's root, which failsafe names in the system property
   * {@code baton.root}, as a contributor would run it, with this environment added to the test's.
   */
  static BatonProcess startLauncher(Map<String, String> environment, String... args) {
    String root = System.getProperty("baton.root");
    assertThat(root).as("system property baton.root (set by failsafe)").isNotBlank();
    Path rootDir = Path.of(root).toAbsolutePath().normalize();
    List<String> command = new ArrayList<>(List.of(rootDir.resolve("bin/baton").toString()));
    command.addAll(List.of(args));
    return startCommand(rootDir, environment, command);
  }

  /** Starts this command line in {@code dir} with this environment added to the test's, minus BATON_BACKEND. */
  static BatonProcess startCommand(Path dir, Map<String, String> environment, List<String> command) {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    builder.environment().remove(Backends.ENV);
    builder.environment().putAll(environment);
    try {
      BatonProcess baton = new BatonProcess(builder.start());
      Thread reader = new Thread(baton::readOutput, "baton-" + baton.process.pid() + "-output");
      reader.setDaemon(true);
      reader.start();
      return baton;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts {@code baton ARGS} in {@code dir}. */
  static BatonProcess start(Path dir, String... args) {
    return start(dir, Map.of(), args);
  }

  /** Runs {@code baton ARGS} in {@code dir} to its end and returns its exit status. */
  static int run(Path dir, String... args) throws InterruptedException {
    try (BatonProcess baton = start(dir, args)) {
      return baton.awaitExit();
    }
  }

  /** The baton process itself. */
  Process process() {
    return process;
  }

  /** Waits up to 20 s for an output line equal to {@code expected}, and fails if none comes. */
  void awaitLine(String expected) throws InterruptedException {
    long remaining = LINE_TIMEOUT.toNanos();
    lock.lock();
    try {
      while (!lines.contains(expected)) {
        if (ended || remaining <= 0) {
          fail("baton printed no line '" + expected + "' within " + LINE_TIMEOUT.toSeconds() + " s:\n" + output());
        }
        remaining = changed.awaitNanos(remaining);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits up to 30 s for baton to exit, and up to 5 s more for the end of its output (which a process it
   * started may keep open), and returns its exit status; fails if baton is still running.
   */
  int awaitExit() throws InterruptedException {
    if (!process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      fail("baton is still running after " + EXIT_TIMEOUT.toSeconds() + " s:\n" + output());
    }
    long remaining = OUTPUT_END_TIMEOUT.toNanos();
    lock.lock();
    try {
      while (!ended && remaining > 0) {
        remaining = changed.awaitNanos(remaining);
      }
    } finally {
      lock.unlock();
    }
    return process.exitValue();
  }

  /** What baton and its command printed so far. */
  String output() {
    lock.lock();
    try {
      return String.join("\n", lines);
    } finally {
      lock.unlock();
    }
  }

  /** Every process baton started, as they are now: its supervisor, the command and what the command started. */
  List<ProcessHandle> descendants() {
    return process.descendants().toList();
  }

  /** The command {@code baton exec} runs, as it is now: the child of baton's own child, its supervisor. */
  List<ProcessHandle> command() {
    return process.children().flatMap(ProcessHandle::children).toList();
  }

  /** The command {@code baton exec} runs and the processes it started, as they are now. */
  List<ProcessHandle> commandTree() {
    return process.children().flatMap(ProcessHandle::descendants).toList();
  }

  /** Kills baton and everything it started, with SIGKILL. */
  @Override
  public void close() {
    Stream.concat(process.descendants(), Stream.of(process.toHandle())).forEach(ProcessHandle::destroyForcibly);
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private void readOutput() {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        String read = line;
        update(() -> lines.add(read));
      }
    } catch (IOException e) {
      update(() -> lines.add("(output unreadable: " + e + ")"));
    } finally {
      update(() -> ended = true);
    }
  }

  private void update(Runnable change) {
    lock.lock();
    try {
      change.run();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
