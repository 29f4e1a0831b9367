package dev.baton.engine;

import dev.baton.BackendUnavailableException;
import java.time.Duration;

/**
 * Tracks a run of failed tries of one acquisition because the store could not be reached: how long to
 * back off, and when to give up. With a wait time the acquire gives up at its deadline; without one,
 * after one ttl of failures, so that an unreachable store fails the caller instead of hanging it.
 */
final class Unavailability {
  private static final long FIRST_BACKOFF_NANOS = 20_000_000L;
  private static final long MAX_BACKOFF_NANOS = 1_000_000_000L;

  private final String key;
  private final String backendName;
  private final Duration ttl;
  private final Deadline deadline;
  private long since;
  private long backoffNanos;
  private BackendUnavailableException last;

  Unavailability(String key, String backendName, Duration ttl, Deadline deadline) {
    this.key = key;
    this.backendName = backendName;
    this.ttl = ttl;
    this.deadline = deadline;
  }

  /** The store answered. */
  void clear() {
    last = null;
    backoffNanos = 0;
  }

  boolean isOngoing() {
    return last != null;
  }

  /**
   * Records a failed try sent at {@code sentAt}.
   *
   * @return how long to wait before the next try
   * @throws BackendUnavailableException if the store has been unreachable for too long
   */
  Duration failed(long sentAt, BackendUnavailableException e) {
    if (last == null) {
      since = sentAt;
    }
    last = e;
    if (deadline.isUnbounded() && deadline.time().now() - since >= ttl.toNanos()) {
      throw failure();
    }
    backoffNanos = backoffNanos == 0 ? FIRST_BACKOFF_NANOS : Math.min(backoffNanos * 2, MAX_BACKOFF_NANOS);
    return Duration.ofNanos(backoffNanos);
  }

  BackendUnavailableException failure() {
    return new BackendUnavailableException("Lock '" + key + "' was not acquired: " + backendName
        + " could not be reached for " + Durations.format(Duration.ofNanos(deadline.time().now() - since)) + " ("
        + last.getMessage() + "). Check that the server runs and is reachable.", last);
  }
}
