package dev.baton;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/** What the store says of a lock at one moment: who holds it, with which token, for how long, and how many wait. */
public final class LockStatus {
  private final String key;
  private final String ownerId;
  private final long fencingToken;
  private final Duration remainingTtl;
  private final int waiters;
  private final LockHolder holder;

  private LockStatus(String key, String ownerId, long fencingToken, Duration remainingTtl, int waiters, LockHolder holder) {
    this.key = Objects.requireNonNull(key, "key");
    this.ownerId = ownerId;
    this.fencingToken = fencingToken;
    this.remainingTtl = remainingTtl;
    this.waiters = waiters;
    this.holder = holder;
  }

  /** Nobody holds the lock. */
  public static LockStatus free(String key, int waiters) {
    return new LockStatus(key, null, 0, null, waiters, null);
  }

  /**
   * Someone holds the lock.
   *
   * @param remainingTtl how long until the store frees it without a renewal, or null where the store
   *     ties it to a session rather than a time
   */
  public static LockStatus held(String key, String ownerId, long fencingToken, Duration remainingTtl, int waiters) {
    return held(key, ownerId, fencingToken, remainingTtl, waiters, null);
  }

  /**
   * Someone holds the lock, and said who.
   *
   * @param holder the host, process, thread and time of the acquisition, or null where the entry does not say
   */
  public static LockStatus held(String key, String ownerId, long fencingToken, Duration remainingTtl, int waiters,
      LockHolder holder) {
    return new LockStatus(key, Objects.requireNonNull(ownerId, "ownerId"), fencingToken, remainingTtl, waiters, holder);
  }

  public String key() {
    return key;
  }

  public boolean isHeld() {
    return ownerId != null;
  }

  /** The holder's owner id: its client id and lease sequence. */
  public Optional<String> ownerId() {
    return Optional.ofNullable(ownerId);
  }

  /** The holder's fencing token. */
  public OptionalLong fencingToken() {
    return isHeld() ? OptionalLong.of(fencingToken) : OptionalLong.empty();
  }

  /** How long until the store frees the lock if its holder stops renewing it; empty where a session decides. */
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
    return isHeld()
        ? "LockStatus{key='" + key + "', held by " + ownerId + holder().map(h -> " (" + h.thread() + " of pid " + h.pid()
            + " on " + h.host() + " since " + h.acquiredAt() + ")").orElse("") + ", token=" + fencingToken
            + remainingTtl().map(t -> ", ttl=" + t.toMillis() + "ms").orElse("") + ", waiters=" + waiters + '}'
        : "LockStatus{key='" + key + "', free, waiters=" + waiters + '}';
  }
}
