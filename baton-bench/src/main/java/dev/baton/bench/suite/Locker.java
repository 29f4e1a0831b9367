package dev.baton.bench.suite;

/**
 * One thread's way to take and give back its hold on one key (a lock, a read or write lock, a permit); used by the
 * thread that made it only.
 */
interface Locker {
  /** Waits until the hold is taken. */
  void lock() throws Exception;

  /** Gives the hold back. */
  void unlock() throws Exception;
}
