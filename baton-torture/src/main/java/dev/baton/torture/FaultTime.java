package dev.baton.torture;

import java.util.List;

/**
 * How much of a stretch of a run the faults took, for the progress checks ({@link MultiLockCheck},
 * {@link WaiterProgressCheck}), which forgive a stall only that long: the store's faults, and a ttl after each; a
 * worker's kill or pause, and the store's crash bound after it, for which the store may keep what the worker held or
 * waited with (a ZooKeeper session outlives its process by its timeout), holding up the keys' next holders without any
 * deadlock.
 */
final class FaultTime {
  private FaultTime() {}

  /** The time the faults took of {@code from} to {@code to} (nanosecond clock), at most the whole of it. */
  static long within(TortureOptions options, List<Torture.FaultEvent> faults, long from, long to) {
    long ttl = options.ttl().toNanos();
    long crashBound = options.crashBound().toNanos();
    long total = 0;
    for (Torture.FaultEvent fault : faults) {
      long after = fault.worker() == null ? ttl : crashBound;
      long start = Math.max(from, fault.startNanos());
      long end = Math.min(to, fault.endNanos() + after);
      total += Math.max(0, end - start);
    }
    return Math.min(total, to - from);
  }
}
