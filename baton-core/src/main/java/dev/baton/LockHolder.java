package dev.baton;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Who holds a lock, as its holder wrote it at the store when it acquired it: the machine, the process, the thread
 * and when, for the first question of an incident ("what is stuck, and where?"). Informational only: the time is
 * the holder's own clock, and a lock handed over between the threads of one client keeps the first thread's name.
 *
 * @param host the holder's host name
 * @param pid the holder's process id
 * @param thread the name of the thread that acquired the lock at the store
 * @param acquiredAt when it did, by the holder's clock
 * @param linger how long the holder keeps the lock at the store after its release, for a re-acquire of its own
 *     ({@link LockOptions.Builder#linger}); zero if it releases at once. Such a holder may hold the lock idle: it
 *     gives it up within a few round trips to a client that waits, or at once when asked
 *     ({@link LockClient#requestRelease}).
 */
public record LockHolder(String host, long pid, String thread, Instant acquiredAt, Duration linger) {
  public LockHolder {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(acquiredAt, "acquiredAt");
    Objects.requireNonNull(linger, "linger");
  }

  /** A holder that releases at once, without linger. */
  public LockHolder(String host, long pid, String thread, Instant acquiredAt) {
    this(host, pid, thread, acquiredAt, Duration.ZERO);
  }

  /** Whether the holder may keep the lock idle after its release: it was acquired with a linger. */
  public boolean lingers() {
    return !linger.isZero();
  }

  /** This holder, keeping the lock {@code linger} after its release. */
  public LockHolder withLinger(Duration linger) {
    return new LockHolder(host, pid, thread, acquiredAt, linger);
  }
}
