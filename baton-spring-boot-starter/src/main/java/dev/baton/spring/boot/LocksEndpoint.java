package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.LockHolder;
import dev.baton.LockStatus;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.lang.Nullable;

/**
 * The {@code locks} Actuator endpoint: {@code GET /actuator/locks} lists the locks this instance holds and the
 * acquires it waits for; {@code GET /actuator/locks?prefix=P} lists the store's locks whose keys start with
 * {@code P}, whoever holds them, as {@code baton list} does. Exposed as every endpoint is
 * ({@code management.endpoints.web.exposure.include=locks}); it shows keys, tokens, hosts and threads, never a
 * store's address or credentials.
 */
@Endpoint(id = "locks")
public class LocksEndpoint {
  /** How many of the store's locks one call lists at most. */
  public static final int LIMIT = 1_000;

  private final LockClient client;
  private final LocksInUse inUse;

  LocksEndpoint(LockClient client, LocksInUse inUse) {
    this.client = client;
    this.inUse = inUse;
  }

  /**
   * This instance's locks, or with {@code prefix} the store's.
   *
   * @param prefix what the keys of the store's locks to list start with ({@code ""} for all); null for this
   *     instance's locks
   */
  @ReadOperation
  public Object locks(@Nullable String prefix) {
    if (prefix == null) {
      return new InstanceLocks(client.clientId(),
          inUse.held().stream().map(lock -> new HeldLock(lock.key(), lock.primitive(), lock.since().toString(),
              lock.fencingToken(), lock.holdEndsAt() == null ? null : lock.holdEndsAt().toString())).toList(),
          inUse.waiting().stream().map(wait -> new Wait(wait.key(), wait.primitive(), wait.since().toString())).toList());
    }
    List<StoreLock> locks = client.list(prefix, LIMIT).stream().map(StoreLock::of).toList();
    return new StoreLocks(prefix, locks, locks.size() == LIMIT);
  }

  /**
   * What this instance holds and waits for.
   *
   * @param clientId the id of its client, the start of every owner id it writes
   */
  public record InstanceLocks(String clientId, List<HeldLock> held, List<Wait> waiting) {}

  /**
   * A lock this instance holds.
   *
   * @param primitive how it was taken: {@code LOCK}, {@code READ_LOCK}, {@code WRITE_LOCK}, {@code SEMAPHORE},
   *     {@code LEADERSHIP} or {@code MULTI_LOCK} (one key of a multi-lock, each listed as held)
   * @param since when it was granted, ISO-8601
   * @param fencingToken the token the store gave with it
   * @param holdEndsAt when its hold timeout ({@code LockOptions.withHoldTimeout}, {@code @Locked(holdTimeout)}) releases
   *     it, ISO-8601, or null where it has none: it is renewed while held
   */
  public record HeldLock(String key, String primitive, String since, long fencingToken, String holdEndsAt) {}

  /**
   * An acquire this instance waits for.
   *
   * @param primitive what it waits for, as {@link HeldLock#primitive()}
   * @param since when it began, ISO-8601
   */
  public record Wait(String key, String primitive, String since) {}

  /**
   * The store's locks under a prefix.
   *
   * @param truncated whether there may be more than {@value LocksEndpoint#LIMIT}, the most one call lists
   */
  public record StoreLocks(String prefix, List<StoreLock> locks, boolean truncated) {}

  /**
   * A lock the store holds, as {@link LockStatus} says it; where several hold it, the oldest holder.
   *
   * @param mode {@code EXCLUSIVE}, {@code SHARED} (readers) or {@code PERMIT} (a semaphore's holders)
   * @param holders how many hold it
   * @param owner the holder's owner id, or null where a peer's entry names none
   * @param fencingToken the holder's token, or null where it took none
   * @param remainingTtl how long until the store frees it without a renewal, ISO-8601, or null where the holder's
   *     session keeps it (ZooKeeper)
   * @param host the holder's host, or null where the entry does not say
   * @param pid the holder's process id, or null
   * @param thread the holder's thread, or null
   * @param acquiredAt when the holder acquired it, ISO-8601, or null
   * @param waiters how many wait for it
   */
  public record StoreLock(String key, String mode, int holders, String owner, Long fencingToken, String remainingTtl,
      String host, Long pid, String thread, String acquiredAt, int waiters) {

    static StoreLock of(LockStatus status) {
      LockHolder holder = status.holder().orElse(null);
      return new StoreLock(status.key(), status.mode().map(Enum::name).orElse(null), status.holders(),
          status.ownerId().orElse(null),
          status.fencingToken().isPresent() ? status.fencingToken().getAsLong() : null,
          status.remainingTtl().map(Duration::toString).orElse(null), holder == null ? null : holder.host(),
          holder == null ? null : holder.pid(), holder == null ? null : holder.thread(),
          holder == null || holder.acquiredAt() == null ? null : holder.acquiredAt().toString(), status.waiters());
    }
  }
}
