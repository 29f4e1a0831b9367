package dev.baton.spi;

import dev.baton.BackendUnavailableException;

/**
 * One acquisition in progress at the store. The engine calls {@link #tryAcquire} until it returns a
 * grant, waiting in between for the attempt's {@link WakeUp} or its retry delay, whichever comes first.
 * Every attempt then ends exactly once: {@link #stopWaiting()} when its grant is taken over (held, or
 * released because it came too late), {@link #abandon()} otherwise. One thread at a time, though not always the same
 * one: an {@code acquireAsync} makes each call on whichever of the client's acquire threads is free, and waits for
 * the wake-up with no thread at all.
 */
public interface Attempt {

  /**
   * Tries to take the lock. When the lock is held by someone else, arranges for {@code wakeUp} to be
   * signalled when it is worth trying again (the holder released, the predecessor went away) before
   * returning.
   *
   * @throws BackendUnavailableException if the store could not be reached; the engine retries
   */
  Outcome tryAcquire(WakeUp wakeUp);

  /**
   * The attempt was granted and the engine took the grant over: stop the wake-ups and free what was kept
   * only for waiting (a subscription, a watch), leaving the granted entry alone. Must not block on the store.
   */
  default void stopWaiting() {}

  /**
   * Gives up: removes whatever this attempt left at the store (a queue entry, an entry written by a
   * call whose reply was lost) and stops its wake-ups. Called when the wait times out, is interrupted or
   * cancelled, or the client closes.
   *
   * @throws BackendUnavailableException if the store could not be reached; the engine retries in the
   *     background
   */
  void abandon();
}
