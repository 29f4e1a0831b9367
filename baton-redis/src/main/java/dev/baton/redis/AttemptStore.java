package dev.baton.redis;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.WakeUp;
import java.util.List;

/** What a {@link RedisAttempt} asks of Redis, in the lock layout its client writes: Baton's own, or Redisson's. */
interface AttemptStore {
  /**
   * Runs one try of {@code request}: {@code [1, token]} when its entry holds, {@code [0, ms to wait at most, arrival]}
   * when not, {@code [2, N]} when the key's permits at the store number N.
   *
   * @param waiting whether the attempt is subscribed to the key's wake-ups
   * @param arrival when the attempt's first try reached the server, as that try's reply said; 0 if not known
   * @param mayBeRecorded whether an earlier try of this waiting writer was sent, which may have recorded it
   */
  List<Object> acquire(AcquireRequest request, boolean waiting, long arrival, boolean mayBeRecorded);

  /** Whether a reply of {@link #acquire} says that the entry holds. */
  static boolean granted(List<Object> reply) {
    return (Long) reply.get(0) == 1L;
  }

  /** Whether {@code request}'s attempt is recorded as a waiting writer while it waits, to {@link #withdraw} if it gives up. */
  boolean recordsWaitingWriter(AcquireRequest request);

  /** Removes the waiting writer's record of {@code request}, if there is one. */
  void withdraw(AcquireRequest request);

  /** Signals {@code wakeUp} whenever the key may have become free, until the subscription is closed. */
  WakeUpChannels.Subscription subscribe(String key, WakeUp wakeUp);

  /** Deletes the entry of {@code request}'s owner, if it is there. */
  boolean release(AcquireRequest request);
}
