package dev.baton.testkit;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Detects a read-write lock or a semaphore that lets in more than it should. Call {@link #exclusiveSection()} while
 * holding a write lock and {@link #sharedSection()} while holding a read lock or a permit: an exclusive section that
 * meets anyone inside, or a shared one that meets a writer, counts as a {@link #violations() violation}, and
 * exclusive sections increment a plain counter with a pause between the read and the write, so that overlapping
 * writers lose increments. {@link #mostSharedAtOnce()} shows whether shared holders did overlap.
 */
public final class SharedHoldChecker {
  private static final long PAUSE_NANOS = 200_000;

  private final AtomicInteger exclusiveInside = new AtomicInteger();
  private final AtomicInteger sharedInside = new AtomicInteger();
  private final AtomicInteger mostShared = new AtomicInteger();
  private final AtomicInteger violations = new AtomicInteger();
  private long counter;

  /** The work to run under a write lock. */
  public void exclusiveSection() {
    if (exclusiveInside.incrementAndGet() > 1 || sharedInside.get() > 0) {
      violations.incrementAndGet();
    }
    long read = counter;
    LockSupport.parkNanos(PAUSE_NANOS);
    counter = read + 1;
    if (sharedInside.get() > 0) {
      violations.incrementAndGet();
    }
    exclusiveInside.decrementAndGet();
  }

  /** The work to run under a read lock or a permit. */
  public void sharedSection() {
    mostShared.accumulateAndGet(sharedInside.incrementAndGet(), Math::max);
    if (exclusiveInside.get() > 0) {
      violations.incrementAndGet();
    }
    LockSupport.parkNanos(PAUSE_NANOS);
    if (exclusiveInside.get() > 0) {
      violations.incrementAndGet();
    }
    sharedInside.decrementAndGet();
  }

  /**
   * The work to run under a permit when the test is to show that permits overlap, whatever the store's speed: it
   * stays inside until another shared holder is inside too, or {@code atMost} has passed.
   */
  public void sharedSectionAwaitingAnother(Duration atMost) {
    mostShared.accumulateAndGet(sharedInside.incrementAndGet(), Math::max);
    if (exclusiveInside.get() > 0) {
      violations.incrementAndGet();
    }
    long deadline = System.nanoTime() + atMost.toNanos();
    while (sharedInside.get() < 2 && System.nanoTime() - deadline < 0) {
      LockSupport.parkNanos(PAUSE_NANOS);
    }
    if (exclusiveInside.get() > 0) {
      violations.incrementAndGet();
    }
    sharedInside.decrementAndGet();
  }

  /** How many times a section met a holder it excludes. */
  public int violations() {
    return violations.get();
  }

  /** The largest number of threads seen inside {@link #sharedSection()} at the same time. */
  public int mostSharedAtOnce() {
    return mostShared.get();
  }

  /** The writers' counter; read it after the threads have been joined. */
  public long count() {
    return counter;
  }
}
