package dev.baton.engine;

import dev.baton.LockLostException;
import dev.baton.LockStatus.Mode;
import java.util.List;
import java.util.Set;
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
 * same set of keys is reentrant. A thread that holds one of its keys through another handle (a lock, a read lock, a
 * permit or another multi-lock) is refused it, and a thread that holds it is refused another handle's hold of one of
 * its keys: either would wait for itself.
 */
final class ThreadHolds {
  private record Owner(String key, Mode mode, Thread thread) {}

  /** A key a thread holds through a multi-lock's Lock view. */
  private record Part(String key, Thread thread) {}

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

  /** What starts a multi-lock's name and separates its keys: no key holds it. */
  private static final String MULTI = "\u0000";

  private final ConcurrentHashMap<Owner, Hold> holds = new ConcurrentHashMap<>();
  /** The keys of the multi-locks each thread holds through their Lock views: written by that thread only. */
  private final Set<Part> parts = ConcurrentHashMap.newKeySet();

  /**
   * Counts one more hold if the calling thread already holds {@code key} in {@code mode} (or, for a read, holds it
   * exclusively), else acquires it.
   *
   * @return whether the thread now holds the key
   * @throws LockLostException if the thread's earlier hold of the key was lost
   * @throws IllegalMonitorStateException if the thread holds the key's read lock and asks for an exclusive hold
   */
  boolean enter(String key, Mode mode, AcquireCall acquire) throws InterruptedException {
    Thread thread = Thread.currentThread();
    Owner me = new Owner(key, mode, thread);
    Hold hold = holds.get(me);
    if (hold != null) {
      checkHeld(hold);
      hold.count++;
      return true;
    }
    if (!parts.isEmpty() && parts.contains(new Part(key, thread))) {
      throw new IllegalMonitorStateException("Thread '" + thread.getName() + "' holds '" + key + "' through a"
          + " multi-lock and asks for it again alone: it would wait for itself. Use the multi-lock's hold, or unlock"
          + " it first.");
    }
    if (mode == Mode.SHARED) {
      Hold exclusive = holds.get(new Owner(key, Mode.EXCLUSIVE, thread));
      if (exclusive != null) {
        checkHeld(exclusive);
        exclusive.use.holds++;
        holds.put(me, new Hold(exclusive.use));
        return true;
      }
    } else if (mode == Mode.EXCLUSIVE && holds.containsKey(new Owner(key, Mode.SHARED, thread))) {
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
    if (!holds.containsKey(new Owner(name, Mode.EXCLUSIVE, thread))) {
      for (String key : keys) {
        if (holdsAlone(key, thread) || parts.contains(new Part(key, thread))) {
          throw new IllegalMonitorStateException("Thread '" + thread.getName() + "' holds lock '" + key
              + "' and asks for the multi-lock " + keys + ": it would wait for itself. Unlock '" + key
              + "' first, or take every key through the multi-lock.");
        }
      }
    }
    if (!enter(name, Mode.EXCLUSIVE, acquire)) {
      return false;
    }
    keys.forEach(key -> parts.add(new Part(key, thread)));
    return true;
  }

  /** Whether {@code thread} holds {@code key} through a handle of one key, in any mode. */
  private boolean holdsAlone(String key, Thread thread) {
    for (Mode mode : Mode.values()) {
      if (holds.containsKey(new Owner(key, mode, thread))) {
        return true;
      }
    }
    return false;
  }

  /** The name a multi-lock's holds are counted under: its keys, each after a NUL. */
  static String multiName(List<String> keys) {
    return MULTI + String.join(MULTI, keys);
  }

  private static List<String> keysOf(String multiName) {
    return List.of(multiName.substring(1).split(MULTI));
  }

  /**
   * Gives up one hold of the calling thread, and the lease with the last hold that uses it.
   *
   * @throws IllegalMonitorStateException if the thread does not hold the key in that mode
   * @throws LockLostException if the last hold ended and the lock had been lost while held
   */
  void exit(String key, Mode mode) {
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
    if (key.startsWith(MULTI)) {
      keysOf(key).forEach(part -> parts.remove(new Part(part, me.thread())));
    }
    if (--hold.use.holds > 0) {
      return;
    }
    if (!hold.use.lease.releaseInOrder()) {
      throw lost(hold.use.lease);
    }
  }

  boolean isHeldByCurrentThread(String key, Mode mode) {
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
    return name.startsWith(MULTI) ? "multi-lock " + keysOf(name) : "lock '" + name + "'";
  }
}
