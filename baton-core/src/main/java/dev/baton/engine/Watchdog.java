package dev.baton.engine;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps the renewed entries of one client alive: one renewal stream per entry, however many leases ride on it. One
 * tick renews every entry that is due, or nearly due, so that the renewals of a client go out together; the renewals
 * do not block the tick, and the next tick is set for the earliest entry that needs attention. An entry whose
 * renewals have failed until its validity ran out is lost.
 */
final class Watchdog {
  private final EngineTime time;
  private final Set<HeldEntry> entries = ConcurrentHashMap.newKeySet();
  private final ReentrantLock scheduling = new ReentrantLock();
  private Future<?> nextTick;
  private long nextTickAt;

  Watchdog(EngineTime time) {
    this.time = time;
  }

  void watch(HeldEntry entry) {
    entries.add(entry);
    tickBy(entry.nextCheckAt());
  }

  void unwatch(HeldEntry entry) {
    entries.remove(entry);
  }

  /** Makes sure a tick runs no later than {@code atNanos}. */
  void tickBy(long atNanos) {
    scheduling.lock();
    try {
      if (nextTick != null && nextTickAt <= atNanos) {
        return;
      }
      if (nextTick != null) {
        nextTick.cancel(false);
      }
      nextTickAt = atNanos;
      nextTick = time.scheduleAt(this::tick, atNanos);
    } catch (RejectedExecutionException closed) {
      nextTick = null;
    } finally {
      scheduling.unlock();
    }
  }

  private void tick() {
    scheduling.lock();
    try {
      nextTick = null;
    } finally {
      scheduling.unlock();
    }
    long now = time.now();
    long earliest = Long.MAX_VALUE;
    for (HeldEntry entry : entries) {
      if (entry.hasEnded()) {
        entries.remove(entry); // watched again by a hold end moved as it ended
        continue;
      }
      if (!entry.isValidAt(now)) {
        entry.validityRanOut(now);
        continue;
      }
      if (entry.isRenewalDue(now)) {
        entry.renew(now);
      }
      earliest = Math.min(earliest, entry.nextCheckAt());
    }
    if (earliest != Long.MAX_VALUE) {
      tickBy(earliest);
    }
  }
}
