package dev.baton.testkit.torture;

import dev.baton.testkit.torture.History.Event;
import dev.baton.testkit.torture.History.Kind;
import dev.baton.testkit.torture.TortureResult.Hold;
import dev.baton.testkit.torture.TortureResult.Violation;
import dev.baton.testkit.torture.TortureResult.Write;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads the workers' histories against the fault schedule and the register, and classifies what it finds. */
final class TortureChecker {
  private final TortureOptions options;
  private final FencedRegister register;
  private final List<Torture.FaultEvent> faults;
  private final Map<String, List<Event>> histories;
  private final long startNanos;
  private final long endNanos;

  TortureChecker(TortureOptions options, FencedRegister register, List<Torture.FaultEvent> faults,
      Map<String, List<Event>> histories, long startNanos, long endNanos) {
    this.options = options;
    this.register = register;
    this.faults = List.copyOf(faults);
    this.histories = histories;
    this.startNanos = startNanos;
    this.endNanos = endNanos;
  }

  TortureResult check(List<String> unexpectedExits) {
    List<Hold> holds = new ArrayList<>();
    Map<String, Integer> perWorker = new LinkedHashMap<>();
    long timeouts = 0;
    long errors = 0;
    for (Map.Entry<String, List<Event>> history : histories.entrySet()) {
      List<Hold> ofWorker = holds(history.getKey(), history.getValue());
      holds.addAll(ofWorker);
      perWorker.put(history.getKey(), ofWorker.size());
      timeouts += history.getValue().stream().filter(event -> event.kind() == Kind.TIMEOUT).count();
      errors += history.getValue().stream().filter(event -> event.kind() == Kind.ERROR).count();
    }
    holds.sort(Comparator.comparingLong(Hold::startNanos));
    List<Violation> violations = new ArrayList<>();
    int explained = overlaps(holds, violations);
    boolean increased = tokensIncreased(holds, violations);
    if (register.lostUpdates() > 0) {
      violations.add(new Violation("lost updates in the register: " + register.lostUpdates(), endNanos, List.of()));
    }
    return new TortureResult(options, startNanos, endNanos, List.copyOf(holds), faults, List.copyOf(violations),
        explained, register.accepted().size(), register.rejected(), register.lostUpdates(), increased,
        longestGapAfterFault(holds), timeouts, errors, perWorker, List.copyOf(unexpectedExits));
  }

  private List<Hold> holds(String worker, List<Event> events) {
    List<Hold> holds = new ArrayList<>();
    long asked = 0;
    Event grant = null;
    boolean lost = false;
    Write write = Write.NONE;
    long readNanos = Long.MAX_VALUE;
    long writeNanos = 0;
    for (Event event : events) {
      switch (event.kind()) {
        case ASK -> asked = event.nanos();
        case GRANT -> {
          grant = event;
          lost = false;
          write = Write.NONE;
          readNanos = Long.MAX_VALUE;
        }
        case READ -> readNanos = event.nanos();
        case LOST -> lost = true;
        case WRITE_OK, WRITE_REJECTED -> {
          write = event.kind() == Kind.WRITE_OK ? Write.ACCEPTED : Write.REJECTED;
          writeNanos = event.nanos();
        }
        case RELEASE -> {
          if (grant != null) {
            holds.add(hold(worker, asked, grant, event.nanos(), lost, readNanos, write, writeNanos));
            grant = null;
          }
        }
        default -> { }
      }
    }
    if (grant != null) { // killed while holding: it held until it died
      long died = faults.stream().filter(fault -> fault.fault() == Fault.KILL && worker.equals(fault.worker()))
          .mapToLong(Torture.FaultEvent::startNanos).findFirst().orElse(endNanos);
      holds.add(hold(worker, asked, grant, died, lost, readNanos, write, writeNanos));
    }
    return holds;
  }

  private Hold hold(String worker, long asked, Event grant, long end, boolean lost, long readNanos, Write write,
      long writeNanos) {
    boolean paused = faults.stream().anyMatch(fault -> fault.fault() == Fault.PAUSE && worker.equals(fault.worker())
        && fault.startNanos() < end && fault.endNanos() > asked
        && fault.endNanos() - fault.startNanos() > options.ttl().toNanos());
    return new Hold(worker, grant.token(), grant.nanos(), end, lost, paused, readNanos, write, writeNanos);
  }

  /**
   * Finds the holds that overlap; returns how many stale holds explain their overlaps and adds every other
   * overlap, per pair, as a violation.
   * Of two overlapping holds, the stale one has the lower token (the store granted it first, whenever its
   * holder got to record it): the overlap is explained when that holder was told it lost the lock or was paused
   * past its ttl, and its write was rejected or landed before the other holder read.
   */
  private static int overlaps(List<Hold> holds, List<Violation> violations) {
    Set<Hold> explained = new HashSet<>();
    for (int i = 0; i < holds.size(); i++) {
      Hold earlier = holds.get(i);
      for (int j = i + 1; j < holds.size() && holds.get(j).startNanos() < earlier.endNanos(); j++) {
        Hold later = holds.get(j);
        if (later.worker().equals(earlier.worker())) {
          continue;
        }
        Hold stale = earlier.token() < later.token() ? earlier : later;
        Hold current = stale == earlier ? later : earlier;
        boolean toldOrPaused = stale.lost() || stale.paused();
        boolean harmless = stale.write() != Write.ACCEPTED || stale.writeNanos() < current.readNanos();
        if (toldOrPaused && harmless) {
          explained.add(stale);
        } else {
          violations.add(new Violation("overlapping holds: token " + stale.token() + " (" + (toldOrPaused
              ? "stale write accepted" : "never told it lost the lock, not paused") + ") and token "
              + current.token(), later.startNanos(), List.of(stale.worker(), current.worker())));
        }
      }
    }
    return explained.size();
  }

  private boolean tokensIncreased(List<Hold> holds, List<Violation> violations) {
    boolean increased = true;
    List<FencedRegister.AcceptedWrite> accepted = register.accepted();
    for (int i = 1; i < accepted.size(); i++) {
      if (accepted.get(i).token() <= accepted.get(i - 1).token()) {
        increased = false;
        violations.add(new Violation("the register accepted token " + accepted.get(i).token() + " after "
            + accepted.get(i - 1).token(), endNanos, List.of(accepted.get(i - 1).worker(), accepted.get(i).worker())));
      }
    }
    Map<Long, Hold> byToken = new HashMap<>();
    for (Hold hold : holds) {
      Hold same = byToken.putIfAbsent(hold.token(), hold);
      if (same != null) {
        increased = false;
        violations.add(new Violation("two holds had token " + hold.token(), hold.startNanos(),
            List.of(same.worker(), hold.worker())));
      }
    }
    return increased;
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
