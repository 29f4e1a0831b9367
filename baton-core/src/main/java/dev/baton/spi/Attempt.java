package dev.baton.spi;

import dev.baton.BackendUnavailableException;

/**
 * One acquisition in progress at the store. The engine calls {@link #tryAcquire} until it returns a
 * grant, waiting in between for the attempt's {@link WakeUp} or its retry delay, whichever comes first;
 * then either the grant is held, or the engine calls {@link #abandon()}. One thread at a time.
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
   * Gives up: removes whatever this attempt left at the store (a queue entry, an entry written by a
   * call whose reply was lost) and stops its wake-ups. Called when the wait times out, is interrupted or
   * cancelled, or the client closes.
   *
   * @throws BackendUnavailableException if the store could not be reached; the engine retries in the
   *     background
   */
  void abandon();
}
