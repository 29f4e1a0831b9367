package dev.baton.engine;

import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import java.time.Duration;
import java.util.List;

/**
 * One acquire of a multi-lock, blocking or not: its keys in order, its one deadline, and the lease it fills key by
 * key. Each key is taken by the path a lock's acquire takes ({@link Engine#acquire}, {@link Engine#acquireAsync}),
 * with what is left of the deadline as its wait time: a key reached once the deadline passed is tried once. The
 * caller takes the keys one after the other ({@link #nextKey}, {@link #nextOptions}, {@link #took}) and, if one
 * fails, {@link #abandon}s the rest.
 */
final class MultiAcquisition {
  private final Engine engine;
  private final List<String> keys;
  private final LockOptions options;
  private final LockOptions partOptions;
  private final Deadline deadline;
  private final MultiLease lease;
  /** The index of the next key: written by one step at a time, each after the step before it. */
  private volatile int next;

  /** An acquire of {@code keys}, in that order, under {@code options}; its deadline starts now. */
  MultiAcquisition(Engine engine, List<String> keys, LockOptions options) {
    this.engine = engine;
    this.keys = keys;
    this.options = options;
    this.partOptions = options.holdTimeout().isPresent() ? options.withHoldTimeout(MultiLease.UNTIL_ALL_TAKEN) : options;
    this.deadline = Deadline.after(engine.time(), options.waitTime());
    this.lease = new MultiLease(engine, keys, options.holdTimeout().isPresent());
  }

  String nextKey() {
    return keys.get(next);
  }

  /** The options of the next key's acquire: what is left of the one deadline as its wait time. */
  LockOptions nextOptions() {
    if (deadline.isUnbounded()) {
      return partOptions;
    }
    return partOptions.withWaitTime(Duration.ofNanos(Math.max(0, deadline.remainingNanos())));
  }

  /**
   * The next key's lease was granted; false when no key is left to take: every key is held (the hold timeout starts
   * now), or the lease ended meanwhile (a key taken before was lost), and {@link #lease()} is the caller's.
   */
  boolean took(EngineLease part) {
    next++;
    if (!lease.take(part)) {
      return false;
    }
    if (next < keys.size()) {
      return true;
    }
    options.holdTimeout().ifPresent(lease::allTaken);
    return false;
  }

  MultiLease lease() {
    return lease;
  }

  /** The acquire failed with {@code failure}: releases the keys taken, adding any release refused to it. */
  void abandon(Throwable failure) {
    lease.abandon(failure);
  }

  /** What the caller is told when the next key was not had within the deadline. */
  LockTimeoutException timeout() {
    return new LockTimeoutException("Multi-lock " + keys + " on " + engine.backend().name() + " was not acquired"
        + " within " + Durations.format(options.waitTime().orElse(Duration.ZERO)) + ": key '" + nextKey() + "' is"
        + " held by another owner, and the keys taken before it were released. Wait longer, or retry later.");
  }
}
