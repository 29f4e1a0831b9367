package dev.baton;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What the store says of a lock at one moment: who holds it, with which token, for how long, and how many wait. A
 * key held by several at once (readers of a read-write lock, holders of a semaphore's permits) says how many hold it
 * ({@link #holders()}), and describes the oldest of them: its owner, token, ttl and holder details.
 */
public final class LockStatus {
  /**
   * How a lock is held: alone, beside others of its kind, or as one of N permits. A held lock's {@link #mode()} is
   * its oldest holder's; the SPI's {@link dev.baton.spi.QueueRule} gives each entry at the store one of these.
   */
  public enum Mode {
    /** One holder: a mutex, the write lock of a read-write lock, a leader. */
    EXCLUSIVE,
    /** Readers of a read-write lock, any number at once. */
    SHARED,
    /** Holders of a semaphore's permits, at most {@link LockStatus#permits()} at once. */
    PERMIT
  }

  private final String key;
  private final String ownerId;
  /** The holder's token; null where the lock is free or its holder took none. */
  private final Long fencingToken;
  private final Duration remainingTtl;
  private final int waiters;
  private final LockHolder holder;
  private final Mode mode;
  private final int holders;
  private final int permits;

  /** Made by the stores, through {@link dev.baton.spi.LockStatuses}: applications read statuses, never make them. */
  private LockStatus(String key, String ownerId, Long fencingToken, Duration remainingTtl, int waiters, LockHolder holder,
      Mode mode, int holders, int permits) {
    this.key = Objects.requireNonNull(key, "key");
    this.ownerId = ownerId;
    this.fencingToken = fencingToken;
    this.remainingTtl = remainingTtl;
    this.waiters = waiters;
    this.holder = holder;
    this.mode = mode;
    this.holders = holders;
    this.permits = permits;
  }

  public String key() {
    return key;
  }

  public boolean isHeld() {
    return mode != null;
  }

  /** How its holders hold it: alone, as readers, or as permit holders; empty if free. */
  public Optional<Mode> mode() {
    return Optional.ofNullable(mode);
  }

  /** How many hold it at once: 0 if free, 1 for an exclusive holder, else the readers or permit holders. */
  public int holders() {
    return holders;
  }

  /** The semaphore's number of permits, where permit holders hold it. */
  public OptionalInt permits() {
    return mode == Mode.PERMIT ? OptionalInt.of(permits) : OptionalInt.empty();
  }

  /**
   * The (oldest) holder's owner id: its client id and lease sequence; empty if free, or if a peer library's holder
   * names none.
   */
  public Optional<String> ownerId() {
    return Optional.ofNullable(ownerId);
  }

  /** The holder's fencing token; empty if free, or if a peer library's holder took none. */
  public OptionalLong fencingToken() {
    return fencingToken != null ? OptionalLong.of(fencingToken) : OptionalLong.empty();
  }

  /**
   * How long until the store frees the lock if its holder stops renewing it; empty where a session decides, or
   * where nothing frees it but its holder (a peer's entry without expiry).
   */
  public Optional<Duration> remainingTtl() {
    return Optional.ofNullable(remainingTtl);
  }

  /** Who holds it: host, process, thread and since when; empty if free, or if the holder's entry does not say. */
  public Optional<LockHolder> holder() {
    return Optional.ofNullable(holder);
  }

  /**
   * How many wait for it at the store: queued acquisitions on ZooKeeper, waiting client processes on Redis
   * (waiters inside one process queue locally and count once).
   */
  public int waiters() {
    return waiters;
  }

  @Override
  public String toString() {
    if (!isHeld()) {
      return "LockStatus{key='" + key + "', free, waiters=" + waiters + '}';
    }
    return "LockStatus{key='" + key + "', held" + sharing() + " by " + (ownerId != null ? ownerId : "an unknown holder")
        + holder().map(h -> " (" + h.thread() + " of pid " + h.pid() + " on " + h.host() + " since " + h.acquiredAt()
            + ")").orElse("")
        + (fencingToken != null ? ", token=" + fencingToken : "")
        + remainingTtl().map(t -> ", ttl=" + t.toMillis() + "ms").orElse("") + ", waiters=" + waiters + '}';
  }

  private String sharing() {
    return switch (mode) {
      case EXCLUSIVE -> "";
      case SHARED -> " by " + holders + (holders == 1 ? " reader" : " readers") + ", the oldest";
      case PERMIT -> " by " + holders + " of " + permits + " permits, the oldest";
    };
  }
}
