package dev.baton.torture;

import dev.baton.torture.History.Event;
import dev.baton.torture.History.Kind;
import dev.baton.torture.TortureResult.Hold;
import dev.baton.torture.TortureResult.Write;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one worker's holds from its history: each from its {@code GRANT} to its {@code RELEASE} (or to the kill
 * that ended the worker), with the side its {@code ASK} asked for, whether it was told it lost the hold before it
 * ended or was paused past the ttl, and its accesses to the register. Accesses belong to the hold whose token they
 * carry, wherever they fall in the file: a revoked leader's write under way lands after its term ended.
 */
final class HoldReader {
  private final List<Torture.FaultEvent> faults;
  private final Duration ttl;
  private final long endNanos;

  HoldReader(List<Torture.FaultEvent> faults, Duration ttl, long endNanos) {
    this.faults = faults;
    this.ttl = ttl;
    this.endNanos = endNanos;
  }

  List<Hold> holds(String worker, List<Event> events) {
    Map<Long, Accesses> accesses = accesses(events);
    List<Hold> holds = new ArrayList<>();
    Event ask = null;
    Event grant = null;
    // The ask a hold was granted for: a later one (a leader standing again while its revoked term is told on another
    // thread) may be recorded before the hold's end.
    Event askGranted = null;
    long lostNanos = Long.MAX_VALUE;
    for (Event event : events) {
      switch (event.kind()) {
        case ASK -> ask = event;
        case GRANT -> {
          grant = event;
          askGranted = ask;
          lostNanos = Long.MAX_VALUE;
        }
        case LOST -> {
          if (grant != null && grant.token() == event.token()) { // not a late word on an earlier hold's lease
            lostNanos = Math.min(lostNanos, event.nanos());
          }
        }
        case RELEASE -> {
          if (grant != null) {
            holds.add(hold(worker, askGranted, grant, event.nanos(), lostNanos, accesses));
            grant = null;
          }
        }
        default -> { }
      }
    }
    if (grant != null) { // killed while holding: it held until it died
      long died = faults.stream().filter(fault -> fault.fault() == Fault.KILL && worker.equals(fault.worker()))
          .mapToLong(Torture.FaultEvent::startNanos).findFirst().orElse(endNanos);
      holds.add(hold(worker, askGranted, grant, died, lostNanos, accesses));
    }
    return holds;
  }

  private Hold hold(String worker, Event ask, Event grant, long end, long lostNanos, Map<Long, Accesses> accesses) {
    long asked = ask == null ? grant.nanos() : ask.nanos();
    boolean shared = ask != null && History.SHARED.equals(ask.detail());
    boolean paused = faults.stream().anyMatch(fault -> fault.fault() == Fault.PAUSE && worker.equals(fault.worker())
        && fault.startNanos() < end && fault.endNanos() > asked
        && fault.endNanos() - fault.startNanos() > ttl.toNanos());
    Accesses of = accesses.getOrDefault(grant.token(), new Accesses());
    return new Hold(worker, shared, grant.token(), asked, grant.nanos(), end, lostNanos <= end, paused,
        of.firstRead, of.write(), of.last);
  }

  private static Map<Long, Accesses> accesses(List<Event> events) {
    Map<Long, Accesses> byToken = new HashMap<>();
    for (Event event : events) {
      switch (event.kind()) {
        case READ, WRITE_OK, READ_REJECTED, WRITE_REJECTED ->
            byToken.computeIfAbsent(event.token(), token -> new Accesses()).add(event);
        default -> { }
      }
    }
    return byToken;
  }

  /** What the register did with one hold's requests; times are the register's. */
  private static final class Accesses {
    long firstRead = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    boolean written;
    boolean rejected;

    void add(Event event) {
      switch (event.kind()) {
        case READ -> {
          firstRead = Math.min(firstRead, event.nanos());
          last = Math.max(last, event.nanos());
        }
        case WRITE_OK -> {
          written = true;
          last = Math.max(last, event.nanos());
        }
        default -> rejected = true;
      }
    }

    Write write() {
      return written ? Write.ACCEPTED : rejected ? Write.REJECTED : Write.NONE;
    }
  }
}
