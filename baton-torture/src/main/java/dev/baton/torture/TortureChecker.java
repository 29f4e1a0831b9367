package dev.baton.torture;

import dev.baton.torture.History.Event;
import dev.baton.torture.History.Kind;
import dev.baton.torture.TortureResult.Hold;
import dev.baton.torture.TortureResult.Violation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the workers' histories against the fault schedule and the register, and classifies what it finds: the holds at
 * once beyond what the primitive allows ({@link ExclusionCheck} for a lock, a read-write lock and a leadership,
 * {@link CapacityCheck} for a semaphore, {@link MultiLockCheck} per key for a multi-lock, with progress), the tokens
 * ({@link TokenCheck}), lost updates, and whether holders shared what they may share.
 */
final class TortureChecker {
  private final TortureOptions options;
  private final FencedRegister register;
  private final List<Torture.FaultEvent> faults;
  private final Map<String, List<Event>> histories;
  private final List<Map<String, List<Event>>> keyHistories;
  private final long startNanos;
  private final long endNanos;

  /**
   * @param histories each worker's history
   * @param keyHistories for a multi-lock, each key's histories by worker ({@link MultiLockHolder}); else empty
   */
  TortureChecker(TortureOptions options, FencedRegister register, List<Torture.FaultEvent> faults,
      Map<String, List<Event>> histories, List<Map<String, List<Event>>> keyHistories, long startNanos,
      long endNanos) {
    this.options = options;
    this.register = register;
    this.faults = List.copyOf(faults);
    this.histories = histories;
    this.keyHistories = keyHistories;
    this.startNanos = startNanos;
    this.endNanos = endNanos;
  }

  TortureResult check(List<String> unexpectedExits) {
    HoldReader reader = new HoldReader(faults, options.ttl(), endNanos);
    List<Hold> holds = new ArrayList<>();
    Map<String, Integer> perWorker = new LinkedHashMap<>();
    long timeouts = 0;
    long errors = 0;
    for (Map.Entry<String, List<Event>> history : histories.entrySet()) {
      List<Hold> ofWorker = reader.holds(history.getKey(), history.getValue());
      holds.addAll(ofWorker);
      perWorker.put(history.getKey(), ofWorker.size());
      timeouts += history.getValue().stream().filter(event -> event.kind() == Kind.TIMEOUT).count();
      errors += history.getValue().stream().filter(event -> event.kind() == Kind.ERROR).count();
    }
    holds.sort(Comparator.comparingLong(Hold::startNanos));
    List<Violation> violations = new ArrayList<>();
    int explained;
    boolean increased;
    if (options.primitive() == Primitive.MULTI_LOCK) {
      MultiLockCheck multi = new MultiLockCheck(options, reader, register, endNanos);
      MultiLockCheck.Outcome outcome = multi.checkKeys(keyHistories, violations);
      multi.checkProgress(holds, faults, startNanos + options.duration().toNanos(), violations);
      explained = outcome.explained();
      increased = outcome.tokensIncreased();
    } else {
      explained = options.primitive() == Primitive.SEMAPHORE
          ? new CapacityCheck(options.permits()).check(holds, violations)
          : new ExclusionCheck(options.primitive()).check(holds, violations);
      increased = new TokenCheck(register, endNanos)
          .check(options.primitive() == Primitive.LINGER ? grants(holds) : holds, violations);
      if (options.primitive() == Primitive.LINGER) {
        new WaiterProgressCheck(options).check(holds, faults, startNanos + options.duration().toNanos(), violations);
      }
    }
    if (register.lostUpdates() > 0) {
      violations.add(new Violation("lost updates in the register: " + register.lostUpdates(), endNanos, List.of()));
    }
    int mostShared = mostSharedAtOnce(holds);
    return new TortureResult(options, startNanos, endNanos, List.copyOf(holds), faults, List.copyOf(violations),
        explained, mostShared, flags(holds, mostShared), register.accepted().size(), register.rejected(),
        register.lostUpdates(), increased, longestGapAfterFault(holds), timeouts, errors, perWorker,
        List.copyOf(unexpectedExits));
  }

  /**
   * The holds that were grants at the store, for the token checks of a lingering lock: a hold whose worker took its
   * own lingering entry back, with the token of its previous hold, continues that grant. A hold with another worker's
   * token is kept, for the checks to find.
   */
  private static List<Hold> grants(List<Hold> holds) {
    Map<Long, String> grantedTo = new HashMap<>();
    List<Hold> grants = new ArrayList<>();
    for (Hold hold : holds) {
      String first = grantedTo.putIfAbsent(hold.token(), hold.worker());
      if (first == null || !first.equals(hold.worker())) {
        grants.add(hold);
      }
    }
    return grants;
  }

  /**
   * The most shared holds (readers, permits) in force at once, they only add up at a grant, leaving out holders
   * paused past their ttl or told they lost the hold: a stale holder beside a current one shows no sharing (a store
   * that held readers one at a time would show that much).
   */
  private static int mostSharedAtOnce(List<Hold> holds) {
    int most = 0;
    List<Hold> inForce = new ArrayList<>();
    for (Hold granted : holds) {
      if (granted.shared() && !granted.paused() && !granted.lost()) {
        inForce.removeIf(hold -> hold.endNanos() <= granted.startNanos());
        inForce.add(granted);
        most = Math.max(most, inForce.size());
      }
    }
    return most;
  }

  /** What the run did not show that the primitive allows: a pass without it would prove less than it says. */
  private List<String> flags(List<Hold> holds, int mostShared) {
    List<String> flags = new ArrayList<>();
    if (options.primitive() == Primitive.READ_WRITE) {
      if (mostShared < 2) {
        flags.add("readers never held at once: the run did not show that readers share the lock");
      }
      if (holds.stream().allMatch(Hold::shared)) {
        flags.add("no writer held: the run did not show that writers exclude readers");
      }
    } else if (options.primitive() == Primitive.SEMAPHORE && mostShared < options.permits()) {
      flags.add("never more than " + mostShared + " permit holders at once of " + options.permits()
          + " permits: the run did not show that the semaphore lets in as many as its permits");
    }
    return flags;
  }

  private Duration longestGapAfterFault(List<Hold> holds) {
    long longest = 0;
    for (Torture.FaultEvent fault : faults) {
      long healed = fault.endNanos();
      boolean heldThen = holds.stream().anyMatch(hold -> hold.startNanos() <= healed && hold.endNanos() > healed
          && !hold.worker().equals(fault.worker()));
      if (!heldThen) {
        long next = holds.stream().mapToLong(Hold::startNanos).filter(start -> start >= healed).min().orElse(endNanos);
        longest = Math.max(longest, next - healed);
      }
    }
    return Duration.ofNanos(longest);
  }
}
