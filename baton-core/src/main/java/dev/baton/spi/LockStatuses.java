package dev.baton.spi;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.LockStatus.Mode;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * How a store makes the {@link LockStatus} its {@link LockBackend#status} and {@link LockBackend#list} report: for
 * store authors. Applications read statuses and never make them, so {@link LockStatus} has no public constructor or
 * factory of its own. A store that lists a key's entries describes the oldest holder with {@link #held} (or
 * {@link HolderRecord#held}, from what {@link AcquireRequest#ownerRecord()} wrote), and {@link QueueRule#describe} adds
 * how many hold it and how.
 */
public final class LockStatuses {
  /**
   * {@link LockStatus}'s private constructor: this class, in the same module, finds it with a private lookup once, as
   * {@link ClientFactory} finds the engine.
   */
  private static final MethodHandle NEW_STATUS = statusConstructor();

  private LockStatuses() {}

  /** Nobody holds the lock of {@code key}; {@code waiters} wait for it. */
  public static LockStatus free(String key, int waiters) {
    return make(key, null, null, null, waiters, null, null, 0, 0);
  }

  /**
   * Someone holds the lock alone.
   *
   * @param ownerId the holder's owner id, {@link AcquireRequest#ownerId()}
   * @param remainingTtl how long until the store frees it without a renewal, or null where the store ties it to a
   *     session rather than a time
   * @param holder the host, process, thread and time of the acquisition, or null where the entry does not say
   */
  public static LockStatus held(String key, String ownerId, long fencingToken, Duration remainingTtl, int waiters,
      LockHolder holder) {
    return make(key, Objects.requireNonNull(ownerId, "ownerId"), fencingToken, remainingTtl, waiters, holder,
        Mode.EXCLUSIVE, 1, 0);
  }

  /**
   * Someone holds the lock alone who may not say who it is, or took no fencing token: a peer library's entry on a
   * name that a client compatible with it shares (a Redisson {@code RLock} takes no token; a hash an application
   * wrote at the name says nothing of its writer).
   *
   * @param ownerId the holder's id, or null where the entry names none
   * @param fencingToken the holder's token, or empty where it took none
   * @param remainingTtl how long until the store frees it, or null where nothing frees it but its holder
   * @param holder the host, process, thread and time of the acquisition, or null where the entry does not say
   */
  public static LockStatus heldByPeer(String key, String ownerId, OptionalLong fencingToken, Duration remainingTtl,
      int waiters, LockHolder holder) {
    return make(key, ownerId, fencingToken.isPresent() ? fencingToken.getAsLong() : null, remainingTtl, waiters,
        holder, Mode.EXCLUSIVE, 1, 0);
  }

  /**
   * {@code oldest}, the status of the oldest holder, as the status of a lock held by {@code holders} at once in
   * {@code mode}.
   *
   * @param permits the semaphore's number of permits where {@code mode} is {@link Mode#PERMIT}, else ignored
   * @throws IllegalArgumentException if the lock is free, if {@code holders} is below 1, above 1 for an exclusive
   *     holder, or above {@code permits} for permit holders
   */
  public static LockStatus heldBy(LockStatus oldest, Mode mode, int holders, int permits) {
    if (!oldest.isHeld() || holders < 1 || (mode == Mode.EXCLUSIVE && holders > 1)
        || (mode == Mode.PERMIT && holders > permits)) {
      throw new IllegalArgumentException("A lock " + (oldest.isHeld() ? "held" : "free") + " cannot be held by "
          + holders + " in mode " + mode + (mode == Mode.PERMIT ? " of " + permits + " permits" : "") + ".");
    }
    return make(oldest.key(), oldest.ownerId().orElse(null),
        oldest.fencingToken().isPresent() ? oldest.fencingToken().getAsLong() : null, oldest.remainingTtl().orElse(null),
        oldest.waiters(), oldest.holder().orElse(null), mode, holders, mode == Mode.PERMIT ? permits : 0);
  }

  private static LockStatus make(String key, String ownerId, Long fencingToken, Duration remainingTtl, int waiters,
      LockHolder holder, Mode mode, int holders, int permits) {
    try {
      return (LockStatus) NEW_STATUS.invokeExact(key, ownerId, fencingToken, remainingTtl, waiters, holder, mode,
          holders, permits);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("Could not make the status of lock '" + key + "'", e);
    }
  }

  private static MethodHandle statusConstructor() {
    try {
      return MethodHandles.privateLookupIn(LockStatus.class, MethodHandles.lookup()).findConstructor(LockStatus.class,
          MethodType.methodType(void.class, String.class, String.class, Long.class, Duration.class, int.class,
              LockHolder.class, Mode.class, int.class, int.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
