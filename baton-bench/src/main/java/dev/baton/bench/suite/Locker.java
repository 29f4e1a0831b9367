package dev.baton.bench.suite;

/** One thread's way to take and give back the lock of one key; used by the thread that made it only. */
interface Locker {
  /** Waits until the lock is held. */
  void lock() throws Exception;

  /** Gives the lock back. */
  void unlock() throws Exception;
}
