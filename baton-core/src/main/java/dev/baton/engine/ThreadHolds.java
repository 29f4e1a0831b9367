package dev.baton.engine;

import dev.baton.LockLostException;
import dev.baton.spi.EntryMode;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link java.util.concurrent.locks.Lock} views' ownership: which thread holds which key in which mode, and how
 * many times. A hold is counted per thread, key and mode across all handles of a client, so a mutex and the write
 * lock of a read-write lock on one key are one hold.
 *
 * <p>A thread that holds a key exclusively may also take its read lock (a downgrade, as
 * {@link java.util.concurrent.locks.ReentrantReadWriteLock} allows): the read hold uses the exclusive lease, which is
 * released when the last hold using it ends, so the thread keeps the key to itself until it has let go of both. The
 * other way round, a reader asking for the write lock, is refused: two readers doing so would wait for each other.
 *
 * <p>A multi-lock's holds are counted under a name of its own, its keys joined by NULs (which no key holds), so the
 * same set of keys is reentrant; a thread that holds one of its keys through another handle is refused it, as it
 * would wait for itself.
 */
final class ThreadHolds {
  private record Owner(String key, EntryMode mode, Thread thread) {}

  /** One lease and how many of a thread's holds use it: one, or an exclusive hold and a read hold nested in it. */
  private static final class Use {
    final ReleasableLease lease;
    int holds = 1; // touched only by the owning thread

    Use(ReleasableLease lease) {
      this.lease = lease;
    }
  }

  private static final class Hold {
    final Use use;
    int count = 1; // touched only by the owning thread

    Hold(Use use) {
      this.use = use;
    }
  }

  private final ConcurrentHashMap<Owner, Hold> holds = new ConcurrentHashMap<>();

  /**
   * Counts one more hold if the calling thread already holds {@code key} in {@code mode} (or, for a read, holds it
   * exclusively), else acquires it.
   *
   * @return whether the thread now holds the key
   * @throws LockLostException if the thread's earlier hold of the key was lost
   * @throws IllegalMonitorStateException if the thread holds the key's read lock and asks for an exclusive hold
   */
  boolean enter(String key, EntryMode mode, AcquireCall acquire) throws InterruptedException {
    Thread thread = Thread.currentThread();
    Owner me = new Owner(key, mode, thread);
    Hold hold = holds.get(me);
    if (hold != null) {
      checkHeld(hold);
      hold.count++;
      return true;
    }
    if (mode == EntryMode.SHARED) {
      Hold exclusive = holds.get(new Owner(key, EntryMode.EXCLUSIVE, thread));
      if (exclusive != null) {
        checkHeld(exclusive);
        exclusive.use.holds++;
        holds.put(me, new Hold(exclusive.use));
        return true;
      }
    } else if (mode == EntryMode.EXCLUSIVE && holds.containsKey(new Owner(key, EntryMode.SHARED, thread))) {
      throw new IllegalMonitorStateException("Thread '" + thread.getName() + "' holds the read lock of '" + key
          + "' and asks for its write lock: a read lock cannot be upgraded, as two readers doing so would wait for"
          + " each other forever. Release the read lock first, or take the write lock from the start.");
    }
    ReleasableLease lease = acquire.call();
    if (lease == null) {
      return false;
    }
    holds.put(me, new Hold(new Use(lease)));
    return true;
  }

  /**
   * As {@link #enter} for a multi-lock over {@code keys}, whose holds are counted under {@link #multiName}.
   *
   * @throws IllegalMonitorStateException if the thread holds one of the keys through another handle
   */
  boolean enterAll(List<String> keys, AcquireCall acquire) throws InterruptedException {
    Thread thread = Thread.currentThread();
    String name = multiName(keys);
    if (!holds.containsKey(new Owner(name, EntryMode.EXCLUSIVE, thread))) {
      for (String key : keys) {
        if (holds.containsKey(new Owner(key, EntryMode.EXCLUSIVE, thread))
            || holds.containsKey(new Owner(key, EntryMode.SHARED, thread))) {
          throw new IllegalMonitorStateException("Thread '" + thread.getName() + "' holds lock '" + key
              + "' and asks for the multi-lock " + keys + ": it would wait for itself. Unlock '" + key
              + "' first, or take every key through the multi-lock.");
        }
      }
    }
    return enter(name, EntryMode.EXCLUSIVE, acquire);
  }

  /** The name a multi-lock's holds are counted under: its keys, each after a NUL. */
  static String multiName(List<String> keys) {
    return "\u0000" + String.join("\u0000", keys);
  }

  /**
   * Gives up one hold of the calling thread, and the lease with the last hold that uses it.
   *
   * @throws IllegalMonitorStateException if the thread does not hold the key in that mode
   * @throws LockLostException if the last hold ended and the lock had been lost while held
   */
  void exit(String key, EntryMode mode) {
    Owner me = new Owner(key, mode, Thread.currentThread());
    Hold hold = holds.get(me);
    if (hold == null) {
      throw new IllegalMonitorStateException("Thread '" + me.thread().getName() + "' does not hold " + shown(key)
          + ": call unlock() from the thread that called lock(), once per lock().");
    }
    if (--hold.count > 0) {
      return;
    }
    holds.remove(me);
    if (--hold.use.holds > 0) {
      return;
    }
    if (!hold.use.lease.release()) {
      throw lost(hold.use.lease);
    }
  }

  boolean isHeldByCurrentThread(String key, EntryMode mode) {
    Hold hold = holds.get(new Owner(key, mode, Thread.currentThread()));
    return hold != null && hold.use.lease.isHeld();
  }

  private static void checkHeld(Hold hold) {
    if (!hold.use.lease.isHeld()) {
      throw lost(hold.use.lease);
    }
  }

  private static LockLostException lost(ReleasableLease lease) {
    String lock = lease.keys().size() == 1 ? "Lock '" + lease.key() + "'" : "Multi-lock " + lease.keys();
    return new LockLostException(lock + " (owner " + lease.ownerId() + ") ended as "
        + lease.state() + " before unlock(): the work done under it was not protected. Use a lost-lock listener"
        + " or a fencing token to stop such work in time.");
  }

  /** How messages name the lock of a hold: {@code lock 'KEY'}, or {@code multi-lock [A, B]}. */
  private static String shown(String name) {
    return name.startsWith("\u0000") ? "multi-lock " + List.of(name.substring(1).split("\u0000")) : "lock '" + name + "'";
  }
}
