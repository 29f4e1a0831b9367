package dev.baton;

/**
 * What a handle on a key was taken as, so that an observer can tell a lock's waits from a leader candidate's:
 * {@link LockObserver} is told it with every event.
 */
public enum Primitive {
  /** {@link LockClient#lock}. */
  LOCK,
  /** The read lock of {@link LockClient#readWriteLock}. */
  READ_LOCK,
  /** The write lock of {@link LockClient#readWriteLock}: the key's mutex, as {@link #LOCK} is. */
  WRITE_LOCK,
  /** A permit of {@link LockClient#semaphore}. */
  SEMAPHORE,
  /** A term of {@link LockClient#leadership}: its acquire waits for as long as the candidate stands. */
  LEADERSHIP,
  /**
   * One key of {@link LockClient#multiLock}: each key of a multi-lock is told as an acquire and a hold of its own (its
   * key's exclusive entry, as {@link #LOCK} takes it), in the multi-lock's key order; a multi-lock of one key is told
   * as a {@link #LOCK}.
   */
  MULTI_LOCK
}
