package dev.baton.bench.suite;

import java.util.concurrent.locks.Lock;

/**
 * One thread's way to take and give back its hold on one key (a lock, a read or write lock, a permit); used by the
 * thread that made it only.
 */
interface Locker {
  /** Waits until the hold is taken. */
  void lock() throws Exception;

  /** Gives the hold back. */
  void unlock() throws Exception;

  /** {@code lock()} and {@code unlock()} of a {@link Lock}: a peer's lock that owns its thread. */
  static Locker of(Lock lock) {
    return new Locker() {
      @Override
      public void lock() {
        lock.lock();
      }

      @Override
      public void unlock() {
        lock.unlock();
      }
    };
  }
}
