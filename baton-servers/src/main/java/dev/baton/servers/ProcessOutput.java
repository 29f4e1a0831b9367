package dev.baton.servers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The output of a child process, read on a daemon thread so that the process never blocks on a full pipe.
 * Keeps the last lines, to wait for one that says the process is ready and to quote in error messages.
 */
public final class ProcessOutput {
  private static final int KEPT_LINES = 200;
  private static final int QUOTED_LINES = 30;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Deque<String> lines = new ArrayDeque<>();
  private boolean ended;

  private ProcessOutput() {}

  /** Starts reading the process's standard output (merge standard error into it to see both). */
  public static ProcessOutput follow(Process process, String threadName) {
    ProcessOutput output = new ProcessOutput();
    Thread reader = new Thread(() -> output.readAll(process), threadName);
    reader.setDaemon(true);
    reader.start();
    return output;
  }

  /**
   * Waits up to {@code timeout} for a line that matches {@code wanted}.
   *
   * @return the line, or empty if the output ended or the time passed first
   */
  public Optional<String> awaitLine(Predicate<String> wanted, Duration timeout) throws InterruptedException {
    long remaining = timeout.toNanos();
    lock.lock();
    try {
      while (true) {
        Optional<String> line = lines.stream().filter(wanted).findFirst();
        if (line.isPresent() || ended || remaining <= 0) {
          return line;
        }
        remaining = changed.awaitNanos(remaining);
      }
    } finally {
      lock.unlock();
    }
  }

  /** The last lines read, for error messages. */
  public String tail() {
    lock.lock();
    try {
      return String.join("\n", lines.stream().skip(Math.max(0, lines.size() - QUOTED_LINES)).toList());
    } finally {
      lock.unlock();
    }
  }

  /** The last lines read, once the output has ended or {@code timeout} has passed: all of a process that exited. */
  public String tailAtEnd(Duration timeout) {
    try {
      awaitLine(line -> false, timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return tail();
  }

  private void readAll(Process process) {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        add(line);
      }
    } catch (IOException e) {
      add("(output unreadable: " + e + ")");
    } finally {
      end();
    }
  }

  private void add(String line) {
    lock.lock();
    try {
      if (lines.size() == KEPT_LINES) {
        lines.removeFirst();
      }
      lines.addLast(line);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void end() {
    lock.lock();
    try {
      ended = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
