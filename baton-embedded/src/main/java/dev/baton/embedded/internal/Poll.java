package dev.baton.embedded.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * Polls a server's state until it is as wanted or a bound passes, for states that offer no event to wait on. Baton's
 * own plumbing, public for the launchers of {@code baton-servers}, which wait on their servers the same way: not API,
 * and it may change in any release.
 */
public final class Poll {
  private Poll() {}

  /**
   * Calls {@code probe} every {@code interval} until {@code done} accepts its value.
   *
   * @return the accepted value, or empty if {@code timeout} passed first
   */
  public static <T> Optional<T> until(Duration timeout, Duration interval, Callable<T> probe, Predicate<? super T> done) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      T value;
      try {
        value = probe.call();
      } catch (Exception e) {
        throw new IllegalStateException("Checking the server's state failed: " + e.getMessage(), e);
      }
      if (done.test(value)) {
        return Optional.of(value);
      }
      if (System.nanoTime() - deadline >= 0) {
        return Optional.empty();
      }
      LockSupport.parkNanos(interval.toNanos());
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for the server");
      }
    }
  }
}
