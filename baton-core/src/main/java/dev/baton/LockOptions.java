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
 *   <li>{@code linger}: how long a mutex stays held at the store after its last local release, for a re-acquire in
 *       the same client to take it back without a round trip, with the same fencing token. Absent or zero: released at
 *       once. As soon as another client waits for the key at the store, or asks with
 *       {@link LockClient#requestRelease}, the client stops re-granting it and releases it at once if idle, else at its
 *       next unlock. For mutexes only ({@link LockClient#lock(String, LockOptions)}), without a hold timeout: see
 *       {@link Builder#linger}.
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
  private final Duration linger;

  private LockOptions(Builder builder) {
    this.waitTime = builder.waitTime;
    this.holdTimeout = builder.holdTimeout;
    this.ttl = builder.ttl;
    this.fair = builder.fair;
    this.linger = builder.linger;
  }

  /** Wait without limit, renew while held, a 30 s ttl, fair, no linger. */
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

  /** How long a released mutex stays held for a re-acquire in this client; absent if it is released at once. */
  public Optional<Duration> linger() {
    return Optional.ofNullable(linger);
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.waitTime = waitTime;
    b.holdTimeout = holdTimeout;
    b.ttl = ttl;
    b.fair = fair;
    b.linger = linger;
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
        && fair == other.fair
        && Objects.equals(linger, other.linger);
  }

  @Override
  public int hashCode() {
    return Objects.hash(waitTime, holdTimeout, ttl, fair, linger);
  }

  @Override
  public String toString() {
    return "LockOptions{waitTime=" + (waitTime == null ? "unbounded" : waitTime)
        + ", holdTimeout=" + (holdTimeout == null ? "renewed" : holdTimeout)
        + ", ttl=" + ttl + ", fair=" + fair + (linger == null ? "" : ", linger=" + linger) + '}';
  }

  /** Builds {@link LockOptions}; every setter checks its value at once. */
  public static final class Builder {
    private Duration waitTime;
    private Duration holdTimeout;
    private Duration ttl = DEFAULT_TTL;
    private boolean fair = true;
    private Duration linger;

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

    /**
     * Keep a released mutex at the store this long, for a re-acquire in this client to take it without a round trip
     * (with the same fencing token); null or zero releases it at once (the default). It saves two round trips per
     * cycle of a process that takes the same lock again and again. What it costs others: a client that waits for the
     * lock gets it within a few round trips (the holder hears of the waiter from the store's watch, or by reading the
     * key's status four times a second on a store that cannot watch, which it does only while it lingers), but a
     * {@code tryAcquire()} from another client, which waits for nothing, fails while the lock lingers, and {@link LockClient#requestRelease}
     * frees it. Only for mutexes ({@link LockClient#lock(String, LockOptions)}), and not with a hold timeout.
     */
    public Builder linger(Duration linger) {
      if (linger != null) {
        Settings.inRange("linger", linger, Duration.ZERO, "Use null or Duration.ZERO to release the lock at once.");
      }
      this.linger = linger == null || linger.isZero() ? null : linger;
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException if both a linger and a hold timeout are set
     */
    public LockOptions build() {
      if (linger != null && holdTimeout != null) {
        throw new IllegalArgumentException("linger (" + linger + ") and holdTimeout (" + holdTimeout + ") cannot be"
            + " combined: a lingering lock is kept after its release, a hold timeout frees it while held. Set one.");
      }
      return new LockOptions(this);
    }
  }
}
