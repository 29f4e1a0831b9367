package dev.baton.testkit;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.awaitility.core.ConditionTimeoutException;

/** Checks that a piece of a test leaves no thread behind: snapshot the live threads before, compare after. */
final class ThreadLeaks {
  /** Threads the JVM or JUnit starts lazily on their own, which are not ours to stop. */
  private static final List<String> NOT_OURS =
      List.of("junit-", "ForkJoinPool", "Attach Listener", "process reaper", "Common-Cleaner", "surefire-");

  private final Set<Thread> before;

  private ThreadLeaks(Set<Thread> before) {
    this.before = before;
  }

  /** Remembers the threads alive now. */
  static ThreadLeaks snapshot() {
    return new ThreadLeaks(Set.copyOf(Thread.getAllStackTraces().keySet()));
  }

  /** Waits (up to {@code timeout}) until every thread started since the snapshot has ended. */
  void awaitNoneLeft(Duration timeout) {
    try {
      await("threads started since the snapshot ended")
          .atMost(timeout)
          .pollInSameThread()
          .pollInterval(Duration.ofMillis(20))
          .until(() -> newThreads().isEmpty());
    } catch (ConditionTimeoutException e) {
      throw new AssertionError("Threads still alive " + timeout.toMillis() + " ms after the end: " + newThreads()
          + "\n" + stacksOfNewThreads(), e);
    }
  }

  private String stacksOfNewThreads() {
    StringBuilder stacks = new StringBuilder();
    Thread.getAllStackTraces().forEach((thread, frames) -> {
      if (!before.contains(thread) && NOT_OURS.stream().noneMatch(thread.getName()::startsWith)) {
        stacks.append(thread.getName()).append(thread.isDaemon() ? " (daemon)" : "").append('\n');
        Arrays.stream(frames).limit(12).forEach(frame -> stacks.append("  at ").append(frame).append('\n'));
      }
    });
    return stacks.toString();
  }

  private List<String> newThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.isAlive() && !before.contains(thread))
        .map(Thread::getName)
        .filter(name -> NOT_OURS.stream().noneMatch(name::startsWith))
        .sorted()
        .toList();
  }
}
