package dev.baton.engine;

import dev.baton.BackendUnavailableException;
import dev.baton.LockHolder.MultiLock;
import dev.baton.LockOptions;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Grant;
import dev.baton.spi.LockBackend;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import java.time.Duration;
import java.util.Optional;

/**
 * One acquire's conversation with the store, within its deadline: an attempt, tried again on each wake-up,
 * until it is granted in time. Every attempt ends here and only here: {@link Attempt#stopWaiting()} once
 * its grant is taken over, {@link Attempt#abandon()} (retried in the background) on every other way out.
 * A grant that comes after its own expiry is given back and a new attempt starts, under a new owner id.
 *
 * <p>One algorithm for both ways of waiting: {@link #next} makes the tries until a grant or a wait is due; a blocking
 * acquire waits on its thread ({@link #run}), an asynchronous one parks on the {@link Signal} and a timer
 * ({@link AsyncAcquisition}) and calls {@link #next} again when either comes. One thread at a time.
 */
final class StoreAcquisition {
  /** Immediate retries in a row ({@link Outcome#retryNow()}) before a retry waits a moment and heeds the deadline. */
  private static final int MAX_IMMEDIATE_RETRIES = 16;
  private static final Duration PAUSE_AFTER_IMMEDIATE_RETRIES = Duration.ofMillis(1);

  private final Engine engine;
  private final LockBackend backend;
  private final String key;
  private final LockOptions options;
  private final Optional<MultiLock> multiLock;
  private final Deadline deadline;
  private final boolean interruptible;
  private final Signal signal;
  private final Unavailability unavailability;
  private final QueueRule rule;
  private final boolean mayWait;
  private AcquireRequest request;
  private Attempt attempt;
  private int immediateRetries;
  private long wakeAtNanos;
  private boolean interrupted;

  /** A grant and when the request that won it was sent: the store's expiry runs from later. */
  record Granted(Grant grant, long sentAt) {}

  /** @param multiLock the multi-lock the key is taken for, if it is: its holder record names it */
  StoreAcquisition(Engine engine, String key, QueueRule rule, LockOptions options, Optional<MultiLock> multiLock,
      Deadline deadline, boolean interruptible, Signal signal) {
    this.engine = engine;
    this.backend = engine.backend();
    this.key = key;
    this.rule = rule;
    this.options = options;
    this.multiLock = multiLock;
    this.deadline = deadline;
    this.interruptible = interruptible;
    this.signal = signal;
    this.mayWait = deadline.remainingNanos() > 0;
    // One promise on every store: without a wait time, an acquire keeps trying through an outage for the
    // ttl asked for, not a store's cap on it.
    this.unavailability = new Unavailability(key, backend.name(), options.ttl(), deadline);
  }

  /**
   * The grant, taken over from its attempt, waiting on the calling thread.
   *
   * @throws dev.baton.LockTimeoutException at the deadline
   * @throws BackendUnavailableException if the store could not be reached for too long
   * @throws InterruptedException if interruptible and interrupted; otherwise the interrupt is kept for the caller
   */
  Granted run() throws InterruptedException {
    try {
      while (true) {
        Granted granted = next();
        if (granted != null) {
          return granted;
        }
        await();
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Tries until the store grants or asks to wait: the grant, taken over from its attempt, or null when the caller is
   * to wait for the signal or {@link #wakeAtNanos()}, whichever comes first, and call again. The attempt is abandoned
   * before any exception leaves.
   *
   * @throws dev.baton.LockTimeoutException at the deadline
   * @throws BackendUnavailableException if the store could not be reached for too long
   * @throws IllegalStateException if the client closed
   */
  Granted next() {
    while (true) {
      if (attempt == null) {
        request = engine.newRequest(key, rule, options, multiLock, mayWait);
        attempt = backend.newAttempt(request);
      }
      Granted granted;
      try {
        granted = tryUntilWait();
      } catch (Throwable t) {
        abandon(t);
        throw t;
      }
      if (granted == null) {
        return null;
      }
      AcquireRequest won = request;
      Attempt done = attempt;
      attempt = null;
      done.stopWaiting();
      if (engine.time().now() - granted.sentAt() < won.entryTtl().toNanos()) {
        return granted;
      }
      // The grant came after its own expiry (this process was paused, or the reply was that slow): the store
      // may have given the lock to someone else since. Give it back and ask again as a new owner.
      Grant late = granted.grant();
      engine.cleanup().run("release of " + won.lockName() + ", granted after its ttl", () -> backend.release(late));
    }
  }

  /** When, in the engine's time, the caller of a {@link #next} that returned null calls again at the latest. */
  long wakeAtNanos() {
    return wakeAtNanos;
  }

  /**
   * Ends the attempt under way, if any, because of {@code failure}. A clean-up the store refuses (not an outage, which
   * is retried in the background) is added to {@code failure} as suppressed: the caller learns why the acquire
   * failed, not that the clean-up after it did.
   */
  void abandon(Throwable failure) {
    if (attempt == null) {
      return;
    }
    Attempt abandoned = attempt;
    attempt = null;
    try {
      engine.cleanup().run("clean-up of the abandoned acquire of " + request.lockName(), abandoned::abandon);
    } catch (RuntimeException refused) {
      failure.addSuppressed(refused);
    }
  }

  private Granted tryUntilWait() {
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
      Duration pause = retryAfter.isZero() ? PAUSE_AFTER_IMMEDIATE_RETRIES : retryAfter;
      if (deadline.hasPassed()) {
        throw unavailability.isOngoing() ? unavailability.failure() : engine.timeout(key, options);
      }
      wakeAtNanos = deadline.wakeAt(pause.toNanos());
      return null;
    }
  }

  private void await() throws InterruptedException {
    try {
      signal.awaitUntil(deadline.time(), wakeAtNanos);
    } catch (InterruptedException e) {
      if (interruptible) {
        abandon(e);
        throw e;
      }
      interrupted = true;
    }
  }
}
