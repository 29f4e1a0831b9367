package dev.baton;

import dev.baton.internal.Settings;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How to acquire and hold a lock. Immutable; build with {@link #builder()} or derive with the
 * {@code with...} methods.
 *
 * <ul>
 *   <li>{@code waitTime}: how long an acquire may wait for another holder. Absent: as long as it takes.
 *       Zero: try once.
 *   <li>{@code holdTimeout}: the lock frees itself this long after it was granted, even
 *       if its holder forgets it. Absent: the lock is kept for as long as it is held.
 *   <li>{@code ttl}: how long the store keeps a lock whose holder stopped renewing it, so how long a
 *       crashed holder blocks the others, with or without a hold timeout. A watchdog renews held locks
 *       every third of it while the process lives.
 *   <li>{@code fair}: whether waiters get the lock in turn, the same promise on every store. Fair (the default):
 *       within a process waiters are served in order of arrival, and a client that releases a lock another
 *       client waits for does not take it back before that waiter: ZooKeeper, etcd, PostgreSQL and the in-memory
 *       store grant in order of arrival at the store, and Redis, which keeps no queue across clients, yields the
 *       next turn to the waiting client ({@code RedisLockClient.Builder.yieldTime}). To save round trips a lock
 *       may pass between the threads of one client up to 64 times in a row before another client's waiter gets
 *       it. Non-fair: no order is promised, as with a non-fair {@link java.util.concurrent.locks.ReentrantLock};
 *       waiters race where the store lets them (ZooKeeper's keep no place in line, Redis's releasing client does
 *       not yield, the in-memory store's readers and permits race), and etcd and PostgreSQL grant in order all
 *       the same. A compatibility mode follows its peer library: {@code compat=curator} refuses non-fair
 *       acquisitions, as Curator's waiters keep their places; {@code compat=redisson} takes Redisson's lock,
 *       which is non-fair whatever is asked (its clients race and yield no turn).
 * </ul>
 */
public final class LockOptions {

  /** The ttl unless told otherwise: a crashed holder blocks others for at most this long. */
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);
  /** The shortest ttl accepted: renewals go out every third of it. */
  public static final Duration MIN_TTL = Duration.ofMillis(100);
  /** The longest wait time, hold timeout or ttl accepted. */
  public static final Duration MAX_DURATION = Duration.ofDays(365);

  private static final LockOptions DEFAULTS = builder().build();

  private final Duration waitTime;
  private final Duration holdTimeout;
  private final Duration ttl;
  private final boolean fair;

  private LockOptions(Builder builder) {
    this.waitTime = builder.waitTime;
    this.holdTimeout = builder.holdTimeout;
    this.ttl = builder.ttl;
    this.fair = builder.fair;
  }

  /** Wait without limit, renew while held, a 30 s ttl, fair. */
  public static LockOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Optional<Duration> waitTime() {
    return Optional.ofNullable(waitTime);
  }

  public Optional<Duration> holdTimeout() {
    return Optional.ofNullable(holdTimeout);
  }

  public Duration ttl() {
    return ttl;
  }

  public boolean fair() {
    return fair;
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.waitTime = waitTime;
    b.holdTimeout = holdTimeout;
    b.ttl = ttl;
    b.fair = fair;
    return b;
  }

  /** These options with another wait time. */
  public LockOptions withWaitTime(Duration waitTime) {
    return toBuilder().waitTime(waitTime).build();
  }

  /** These options with another hold timeout. */
  public LockOptions withHoldTimeout(Duration holdTimeout) {
    return toBuilder().holdTimeout(holdTimeout).build();
  }

  /** These options with another ttl. */
  public LockOptions withTtl(Duration ttl) {
    return toBuilder().ttl(ttl).build();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LockOptions other
        && Objects.equals(waitTime, other.waitTime)
        && Objects.equals(holdTimeout, other.holdTimeout)
        && ttl.equals(other.ttl)
        && fair == other.fair;
  }

  @Override
  public int hashCode() {
    return Objects.hash(waitTime, holdTimeout, ttl, fair);
  }

  @Override
  public String toString() {
    return "LockOptions{waitTime=" + (waitTime == null ? "unbounded" : waitTime)
        + ", holdTimeout=" + (holdTimeout == null ? "renewed" : holdTimeout)
        + ", ttl=" + ttl + ", fair=" + fair + '}';
  }

  /** Builds {@link LockOptions}; every setter checks its value at once. */
  public static final class Builder {
    private Duration waitTime;
    private Duration holdTimeout;
    private Duration ttl = DEFAULT_TTL;
    private boolean fair = true;

    private Builder() {}

    /** At most this long to wait for another holder; zero tries once; null waits without limit. */
    public Builder waitTime(Duration waitTime) {
      if (waitTime != null) {
        Settings.inRange("waitTime", waitTime, Duration.ZERO, "Use Duration.ZERO to try once, or null to wait without limit.");
      }
      this.waitTime = waitTime;
      return this;
    }

    /** Free the lock this long after it is granted; null renews it while held. */
    public Builder holdTimeout(Duration holdTimeout) {
      if (holdTimeout != null) {
        Settings.inRange("holdTimeout", holdTimeout, Duration.ofMillis(1), "Use null to keep the lock until it is released.");
      }
      this.holdTimeout = holdTimeout;
      return this;
    }

    /** How long the store keeps the lock of a holder that stopped renewing it. */
    public Builder ttl(Duration ttl) {
      if (ttl == null) {
        throw new IllegalArgumentException("ttl must not be null; the default is " + DEFAULT_TTL + ".");
      }
      Settings.inRange("ttl", ttl, MIN_TTL, "The watchdog renews every third of the ttl.");
      this.ttl = ttl;
      return this;
    }

    /** Whether waiters get the lock in turn (see {@link LockOptions}); true by default. */
    public Builder fair(boolean fair) {
      this.fair = fair;
      return this;
    }

    public LockOptions build() {
      return new LockOptions(this);
    }
  }
}
