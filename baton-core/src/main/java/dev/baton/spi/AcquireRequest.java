package dev.baton.spi;

import dev.baton.LockHolder;
import java.time.Duration;
import java.util.Objects;

/**
 * What an acquisition asks of the store.
 *
 * @param key the lock's key, already checked
 * @param ownerId the id to write at the store: unique to this acquisition, stable across its retries
 * @param rule what the acquisition's entry is ({@link QueueRule#mode()}) and when it holds: {@link QueueRule#EXCLUSIVE}
 *     for a lock
 * @param ttl how long the store keeps an entry whose holder stopped renewing it
 * @param holdTimeout the hold timeout, or null when the entry is kept for as long as it is held
 * @param fair whether waiters get the lock in turn ({@link dev.baton.LockOptions}): the store queues the entry in
 *     order of arrival, or (Redis) a release it was waited on yields the next turn to the waiting client
 * @param mayWait whether the caller will wait if the lock is taken (false for a single try, so the store
 *     need not set up wake-ups)
 * @param holder who asks: host, process, thread and when, for {@code status} and {@code list} to show
 */
public record AcquireRequest(String key, String ownerId, QueueRule rule, Duration ttl, Duration holdTimeout, boolean fair,
    boolean mayWait, LockHolder holder) {
  public AcquireRequest {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(ownerId, "ownerId");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(holder, "holder");
  }

  /** The owner id and the holder as the text a backend stores with the entry ({@link HolderRecord}). */
  public String ownerRecord() {
    return HolderRecord.write(ownerId, holder);
  }

  /**
   * Whether the engine renews the entry while it is held: always, unless the hold timeout ends it
   * within the first ttl.
   */
  public boolean renewed() {
    return holdTimeout == null || holdTimeout.compareTo(ttl) > 0;
  }

  /**
   * The id of the client that asks: the owner id up to its first {@code :}, as the engine writes it; the whole owner
   * id if it has none. A store delivers requests to release this entry ({@link LockBackend#requestRelease}) to it.
   */
  public String clientId() {
    return clientIdOf(ownerId);
  }

  /**
   * The id of the client that wrote an entry under {@code ownerId}: up to its first {@code :}, as the engine writes
   * owner ids; the whole owner id if it has none (an entry of another library's).
   */
  public static String clientIdOf(String ownerId) {
    int colon = ownerId.indexOf(':');
    return colon < 0 ? ownerId : ownerId.substring(0, colon);
  }

  /** How messages name this acquisition's lock: {@code lock 'KEY' (owner ID)}. */
  public String lockName() {
    return "lock '" + key + "' (owner " + ownerId + ")";
  }

  /**
   * The entry's ttl at the store, how long it keeps the entry from the acquire without a renewal: the ttl, or the
   * hold timeout if that is shorter. A crashed holder never blocks the others for longer than the ttl.
   */
  public Duration entryTtl() {
    return holdTimeout != null && holdTimeout.compareTo(ttl) < 0 ? holdTimeout : ttl;
  }
}
