package dev.baton.bench.suite;

/**
 * What a locker takes of its key: the lock, the read or the write lock of a read-write lock, a semaphore's permit, or
 * the locks of a random set of keys under it; named as {@link dev.baton.Primitive} names them.
 */
enum Hold {
  LOCK("mutex"),
  READ_LOCK("read lock"),
  WRITE_LOCK("write lock"),
  /** One permit of a semaphore of {@link #PERMITS}. */
  SEMAPHORE("semaphore permit"),
  /** Several keys at once: a random {@link KeySet} under the locker's key, a new one each cycle. */
  MULTI_LOCK("multi-lock");

  /** The permits of every semaphore the suite measures. */
  static final int PERMITS = 4;

  private final String label;

  Hold(String label) {
    this.label = label;
  }

  /** The failure of {@code contender}, which has no such hold. */
  UnsupportedOperationException unsupportedBy(Contender contender) {
    return new UnsupportedOperationException(contender.getClass().getSimpleName() + " has no " + label + ".");
  }
}
