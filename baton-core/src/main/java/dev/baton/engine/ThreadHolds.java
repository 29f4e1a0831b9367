package dev.baton.engine;

import dev.baton.LockLostException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link java.util.concurrent.locks.Lock} view's ownership: which thread holds which key, and how
 * many times. A hold is counted per thread and key across all handles of a client.
 */
final class ThreadHolds {
  private record Owner(String key, Thread thread) {}

  private static final class Hold {
    final EngineLease lease;
    int count = 1; // touched only by the owning thread

    Hold(EngineLease lease) {
      this.lease = lease;
    }
  }

  private final ConcurrentHashMap<Owner, Hold> holds = new ConcurrentHashMap<>();

  /**
   * Counts one more hold if the calling thread already holds {@code key}, else acquires it.
   *
   * @return whether the thread now holds the key
   * @throws LockLostException if the thread's earlier hold of the key was lost
   */
  boolean enter(String key, AcquireCall acquire) throws InterruptedException {
    Owner me = new Owner(key, Thread.currentThread());
    Hold hold = holds.get(me);
    if (hold != null) {
      if (!hold.lease.isHeld()) {
        throw lost(hold.lease);
      }
      hold.count++;
      return true;
    }
    EngineLease lease = acquire.call();
    if (lease == null) {
      return false;
    }
    holds.put(me, new Hold(lease));
    return true;
  }

  /**
   * Gives up one hold of the calling thread, and the lock with the last one.
   *
   * @throws IllegalMonitorStateException if the thread does not hold the key
   * @throws LockLostException if the last hold ended and the lock had been lost while held
   */
  void exit(String key) {
    Owner me = new Owner(key, Thread.currentThread());
    Hold hold = holds.get(me);
    if (hold == null) {
      throw new IllegalMonitorStateException("Thread '" + me.thread().getName() + "' does not hold lock '" + key
          + "': call unlock() from the thread that called lock(), once per lock().");
    }
    if (--hold.count > 0) {
      return;
    }
    holds.remove(me);
    if (!hold.lease.release()) {
      throw lost(hold.lease);
    }
  }

  boolean isHeldByCurrentThread(String key) {
    Hold hold = holds.get(new Owner(key, Thread.currentThread()));
    return hold != null && hold.lease.isHeld();
  }

  private static LockLostException lost(EngineLease lease) {
    return new LockLostException("Lock '" + lease.key() + "' (owner " + lease.ownerId() + ") ended as "
        + lease.state() + " before unlock(): the work done under it was not protected. Use a lost-lock listener"
        + " or a fencing token to stop such work in time.");
  }
}
