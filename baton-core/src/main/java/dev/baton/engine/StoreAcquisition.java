package dev.baton.engine;

import dev.baton.BackendUnavailableException;
import dev.baton.LockOptions;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Grant;
import dev.baton.spi.LockBackend;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import java.time.Duration;

/**
 * One acquire's conversation with the store, within its deadline: an attempt, tried again on each wake-up,
 * until it is granted in time. Every attempt ends here and only here: {@link Attempt#stopWaiting()} once
 * its grant is taken over, {@link Attempt#abandon()} (retried in the background) on every other way out.
 * A grant that comes after its own expiry is given back and a new attempt starts, under a new owner id.
 */
final class StoreAcquisition {
  /** Immediate retries in a row ({@link Outcome#retryNow()}) before a retry waits a moment and heeds the deadline. */
  private static final int MAX_IMMEDIATE_RETRIES = 16;
  private static final Duration PAUSE_AFTER_IMMEDIATE_RETRIES = Duration.ofMillis(1);

  private final Engine engine;
  private final LockBackend backend;
  private final String key;
  private final LockOptions options;
  private final Deadline deadline;
  private final boolean interruptible;
  private final Signal signal;
  private final Unavailability unavailability;
  private final QueueRule rule;
  private boolean interrupted;

  /** A grant and when the request that won it was sent: the store's expiry runs from later. */
  record Granted(Grant grant, long sentAt) {}

  StoreAcquisition(Engine engine, String key, QueueRule rule, LockOptions options, Deadline deadline,
      boolean interruptible, Signal signal) {
    this.engine = engine;
    this.backend = engine.backend();
    this.key = key;
    this.rule = rule;
    this.options = options;
    this.deadline = deadline;
    this.interruptible = interruptible;
    this.signal = signal;
    // One promise on every store: without a wait time, an acquire keeps trying through an outage for the
    // ttl asked for, not a store's cap on it.
    this.unavailability = new Unavailability(key, backend.name(), options.ttl(), deadline);
  }

  /**
   * The grant, taken over from its attempt.
   *
   * @throws dev.baton.LockTimeoutException at the deadline
   * @throws BackendUnavailableException if the store could not be reached for too long
   * @throws InterruptedException if interruptible and interrupted; otherwise the interrupt is kept for the caller
   */
  Granted run() throws InterruptedException {
    boolean mayWait = deadline.remainingNanos() > 0;
    try {
      while (true) {
        AcquireRequest request = engine.newRequest(key, rule, options, mayWait);
        Attempt attempt = backend.newAttempt(request);
        Granted granted;
        try {
          granted = untilGranted(attempt);
        } catch (Throwable t) {
          abandon(request, attempt, t);
          throw t;
        }
        attempt.stopWaiting();
        if (engine.time().now() - granted.sentAt() < request.expiry().toNanos()) {
          return granted;
        }
        // The grant came after its own expiry (this process was paused, or the reply was that slow): the store
        // may have given the lock to someone else since. Give it back and ask again as a new owner.
        Grant late = granted.grant();
        engine.cleanup().run("release of " + request.lockName() + ", granted after its ttl", () -> backend.release(late));
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Ends an attempt that failed with {@code failure}. A clean-up the store refuses (not an outage, which is retried in
   * the background) is added to {@code failure} as suppressed: the caller learns why the acquire failed, not that
   * the clean-up after it did.
   */
  private void abandon(AcquireRequest request, Attempt attempt, Throwable failure) {
    try {
      engine.cleanup().run("clean-up of the abandoned acquire of " + request.lockName(), attempt::abandon);
    } catch (RuntimeException refused) {
      failure.addSuppressed(refused);
    }
  }

  private Granted untilGranted(Attempt attempt) throws InterruptedException {
    int immediateRetries = 0;
    while (true) {
      engine.ensureOpen();
      signal.reset();
      long sentAt = engine.time().now();
      Duration retryAfter;
      try {
        Outcome outcome = attempt.tryAcquire(signal);
        if (outcome.isGranted()) {
          return new Granted(outcome.grant(), sentAt);
        }
        unavailability.clear();
        retryAfter = outcome.retryAfter();
      } catch (BackendUnavailableException e) {
        retryAfter = unavailability.failed(sentAt, e);
      }
      if (retryAfter.isZero() && ++immediateRetries <= MAX_IMMEDIATE_RETRIES) {
        continue;
      }
      // A store that keeps asking to retry at once (its queue changing under it) must not hold a try past its deadline.
      immediateRetries = 0;
      await(retryAfter.isZero() ? PAUSE_AFTER_IMMEDIATE_RETRIES : retryAfter);
    }
  }

  private void await(Duration retryAfter) throws InterruptedException {
    long waitNanos = Math.min(deadline.remainingNanos(), retryAfter.toNanos());
    if (waitNanos <= 0) {
      throw unavailability.isOngoing() ? unavailability.failure() : engine.timeout(key, options);
    }
    try {
      signal.await(deadline.time(), waitNanos);
    } catch (InterruptedException e) {
      if (interruptible) {
        throw e;
      }
      interrupted = true;
    }
  }
}
