package dev.baton.torture;

import dev.baton.torture.TortureResult.Hold;
import dev.baton.torture.TortureResult.Violation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a lingering-lock torture must show besides a lock's exclusion ({@link Primitive#LINGER}): that a worker
 * waiting in another process is served, not left waiting while a holder keeps taking the lock back. Each worker's
 * holders linger far longer than the run's bound ({@link Primitive#LINGER_FOR}), so only the holder's giving up to a
 * waiter can serve the others in time: from each worker's first grant to its next, and from its last to the end of
 * the faults unless it was killed, no stretch without a grant may last longer than two of its wait times plus
 * {@link #SLACK}, the faults and the store's crash bound after a worker's kill or pause left out. Two wait times: a
 * worker may time out once behind the others (they all queue fairly); a holder that never gave the key up would make
 * every waiter time out again and again.
 */
final class WaiterProgressCheck {
  /** Beyond the wait times: a loaded machine's scheduling, a new worker's start after a kill. */
  private static final Duration SLACK = Duration.ofSeconds(3);

  private final TortureOptions options;

  WaiterProgressCheck(TortureOptions options) {
    this.options = options;
  }

  /** Adds a violation for each worker that went longer than the bound without a grant, naming it and the stretch. */
  void check(List<Hold> holds, List<Torture.FaultEvent> faults, long faultsEndNanos, List<Violation> violations) {
    Map<String, List<Long>> grants = new TreeMap<>();
    for (Hold hold : holds) {
      grants.computeIfAbsent(hold.worker(), worker -> new ArrayList<>()).add(hold.startNanos());
    }
    if (grants.isEmpty()) {
      violations.add(new Violation("no lingering lock was ever granted: the workers made no progress",
          faultsEndNanos, List.of()));
      return;
    }
    long bound = options.waitTime().multipliedBy(2).plus(SLACK).toNanos();
    for (Map.Entry<String, List<Long>> ofWorker : grants.entrySet()) {
      List<Long> points = new ArrayList<>(ofWorker.getValue());
      points.sort(null);
      long last = points.get(points.size() - 1);
      if (!killed(ofWorker.getKey(), faults) && faultsEndNanos > last) {
        points.add(faultsEndNanos);
      }
      for (int i = 1; i < points.size(); i++) {
        long from = points.get(i - 1);
        long to = points.get(i);
        long stalled = to - from - FaultTime.within(options, faults, from, to);
        if (stalled > bound) {
          violations.add(new Violation("worker " + ofWorker.getKey() + " got no lingering lock for "
              + Duration.ofNanos(to - from).toMillis() + " ms (" + Duration.ofNanos(stalled).toMillis()
              + " ms beyond the faults and what they left at the store; bound " + Duration.ofNanos(bound).toMillis()
              + " ms): a holder kept taking it back while it waited?", to, List.of(ofWorker.getKey())));
        }
      }
    }
  }

  private static boolean killed(String worker, List<Torture.FaultEvent> faults) {
    return faults.stream().anyMatch(fault -> fault.fault() == Fault.KILL && worker.equals(fault.worker()));
  }
}
