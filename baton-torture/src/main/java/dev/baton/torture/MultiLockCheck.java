package dev.baton.torture;

import dev.baton.torture.History.Event;
import dev.baton.torture.TortureResult.Hold;
import dev.baton.torture.TortureResult.Violation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What a multi-lock torture must show ({@link Primitive#MULTI_LOCK}): on each key, the holds of every worker that took
 * it, held to what a lock's are ({@link ExclusionCheck}: no two holders at once that neither a pause nor a loss
 * explains; {@link TokenCheck}: the key's tokens grew); every key held at some time; and progress: from the first
 * grant to the end of the faults, no stretch without any grant longer than a worker's wait time plus
 * {@link #SLACK}, not counting the store's own faults and a ttl after each. The workers wait without limit, so a
 * deadlock among them would stall every worker whose set meets theirs for the rest of the run.
 */
final class MultiLockCheck {
  /** Beyond the wait time: a loaded machine's scheduling, a new worker's start after a kill. */
  private static final Duration SLACK = Duration.ofSeconds(3);

  private final TortureOptions options;
  private final HoldReader reader;
  private final FencedRegister register;
  private final long endNanos;

  MultiLockCheck(TortureOptions options, HoldReader reader, FencedRegister register, long endNanos) {
    this.options = options;
    this.reader = reader;
    this.register = register;
    this.endNanos = endNanos;
  }

  /** What the per-key checks found: overlaps explained, and whether every key's tokens grew. */
  record Outcome(int explained, boolean tokensIncreased) {}

  /**
   * Checks each key's holds, read from {@code keyHistories} (per key, per worker), adding what breaks to
   * {@code violations}, each naming its key.
   */
  Outcome checkKeys(List<Map<String, List<Event>>> keyHistories, List<Violation> violations) {
    int explained = 0;
    boolean increased = true;
    for (int k = 0; k < keyHistories.size(); k++) {
      String name = MultiLockHolder.keyName(options.key(), k);
      List<Hold> holds = new ArrayList<>();
      keyHistories.get(k).forEach((worker, events) -> holds.addAll(reader.holds(worker, events)));
      holds.sort(Comparator.comparingLong(Hold::startNanos));
      if (holds.isEmpty()) {
        violations.add(new Violation("key '" + name + "' was never held", endNanos, List.of()));
      }
      List<Violation> found = new ArrayList<>();
      explained += new ExclusionCheck(Primitive.MULTI_LOCK).check(holds, found);
      increased &= new TokenCheck(register, endNanos).check(holds, found);
      found.forEach(violation -> violations.add(new Violation(violation.what() + " on key '" + name + "'",
          violation.atNanos(), violation.workers())));
    }
    return new Outcome(explained, increased);
  }

  /**
   * Adds a violation if, between the first grant and {@code faultsEndNanos}, no multi-lock was granted for longer
   * than the bound (the faults, and what they leave at the store for a while, left out), naming the stretch.
   */
  void checkProgress(List<Hold> holds, List<Torture.FaultEvent> faults, long faultsEndNanos,
      List<Violation> violations) {
    List<Long> grants = holds.stream().map(Hold::startNanos).sorted().toList();
    if (grants.isEmpty()) {
      violations.add(new Violation("no multi-lock was ever granted: the workers made no progress", endNanos,
          List.of()));
      return;
    }
    long bound = options.waitTime().plus(SLACK).toNanos();
    List<Long> points = new ArrayList<>(grants);
    points.add(Math.max(faultsEndNanos, grants.get(grants.size() - 1)));
    for (int i = 1; i < points.size(); i++) {
      long from = points.get(i - 1);
      long to = points.get(i);
      long stalled = to - from - FaultTime.within(options, faults, from, to);
      if (stalled > bound) {
        violations.add(new Violation("no multi-lock granted for " + Duration.ofNanos(to - from).toMillis()
            + " ms (" + Duration.ofNanos(stalled).toMillis() + " ms beyond the faults and what they left at the store; bound "
            + Duration.ofNanos(bound).toMillis() + " ms): the workers made no progress, a deadlock?", to, List.of()));
      }
    }
  }
}
