package dev.baton.testkit;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Detects two holders of a lock at once. Call {@link #criticalSection()} while holding the lock: it counts
 * the threads inside, and increments a plain, unsynchronized counter with a pause between the read and the
 * write, so that overlapping holders lose increments. Afterwards, {@link #count()} equals the number of calls
 * and {@link #mostInsideAtOnce()} is 1 exactly when the lock excluded.
 */
public final class MutualExclusionChecker {
  private static final long PAUSE_NANOS = 200_000;

  private final AtomicInteger inside = new AtomicInteger();
  private final AtomicInteger mostInside = new AtomicInteger();
  private long counter;

  /** The work to run under the lock. */
  public void criticalSection() {
    mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
    long read = counter;
    LockSupport.parkNanos(PAUSE_NANOS);
    counter = read + 1;
    inside.decrementAndGet();
  }

  /** The counter; read it after the threads that called {@link #criticalSection()} have been joined. */
  public long count() {
    return counter;
  }

  /** The largest number of threads seen inside {@link #criticalSection()} at the same time. */
  public int mostInsideAtOnce() {
    return mostInside.get();
  }
}
