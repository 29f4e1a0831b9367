package dev.baton.engine;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps the renewed leases of one client alive. One tick renews every lease that is due, or nearly
 * due, so that the renewals of a client go out together; the renewals do not block the tick, and the
 * next tick is set for the earliest lease that needs attention. A lease whose renewals have failed
 * until its validity ran out is reported lost.
 */
final class Watchdog {
  private final EngineTime time;
  private final Set<EngineLease> leases = ConcurrentHashMap.newKeySet();
  private final ReentrantLock scheduling = new ReentrantLock();
  private Future<?> nextTick;
  private long nextTickAt;

  Watchdog(EngineTime time) {
    this.time = time;
  }

  void watch(EngineLease lease) {
    leases.add(lease);
    tickBy(lease.nextCheckAt());
  }

  void unwatch(EngineLease lease) {
    leases.remove(lease);
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
      nextTick = time.schedule(this::tick, Math.max(0, atNanos - time.now()));
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
    for (EngineLease lease : leases) {
      if (!lease.isValidAt(now)) {
        lease.validityRanOut(now);
        continue;
      }
      if (lease.isRenewalDue(now)) {
        lease.renew(now);
      }
      earliest = Math.min(earliest, lease.nextCheckAt());
    }
    if (earliest != Long.MAX_VALUE) {
      tickBy(earliest);
    }
  }
}
