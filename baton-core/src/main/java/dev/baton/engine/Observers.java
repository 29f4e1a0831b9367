package dev.baton.engine;

import dev.baton.LockObserver;
import dev.baton.LostReason;
import dev.baton.Primitive;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The observers of one client, each told of every event; one that throws is logged and the others still told.
 * The outcome of an acquire is told on the acquiring thread (where a trace of the caller continues); what
 * happens to a held lease, its renewals and its end, on the client's event thread, in order, never on the
 * watchdog or a store's I/O thread, so that a slow observer delays no renewal.
 */
final class Observers {
  private static final Logger log = LoggerFactory.getLogger(Observers.class);

  private final List<LockObserver> observers = new CopyOnWriteArrayList<>();
  private final Events events;
  private final EngineTime time;

  Observers(Events events, EngineTime time) {
    this.events = events;
    this.time = time;
  }

  void add(LockObserver observer) {
    if (observer == null) {
      throw new IllegalArgumentException("The observer must not be null.");
    }
    observers.add(observer);
  }

  void acquiring(String key, Primitive primitive) {
    tell(key, o -> o.acquiring(key, primitive));
  }

  void acquired(EngineLease lease, Primitive primitive, long sinceNanos) {
    Duration waited = since(sinceNanos);
    tell(lease.key(), o -> o.acquired(lease, primitive, waited));
  }

  void timedOut(String key, Primitive primitive, long sinceNanos) {
    Duration waited = since(sinceNanos);
    tell(key, o -> o.timedOut(key, primitive, waited));
  }

  void failed(String key, Primitive primitive, long sinceNanos, Throwable error) {
    Duration waited = since(sinceNanos);
    tell(key, o -> o.failed(key, primitive, waited, error));
  }

  void ended(EngineLease lease, Primitive primitive, long grantedAtNanos, LostReason reason) {
    if (observers.isEmpty()) {
      return; // no hand-off to the event thread for nobody: this runs on every release
    }
    Duration heldFor = since(grantedAtNanos);
    events.dispatch(() -> tell(lease.key(), o -> o.ended(lease, primitive, heldFor, reason)));
  }

  void renewed(EngineLease lease, Primitive primitive, boolean succeeded) {
    if (observers.isEmpty()) {
      return;
    }
    events.dispatch(() -> tell(lease.key(), o -> o.renewed(lease, primitive, succeeded)));
  }

  private void tell(String key, Consumer<LockObserver> event) {
    for (LockObserver observer : observers) {
      try {
        event.accept(observer);
      } catch (RuntimeException e) {
        log.warn("Lock observer {} failed on an event of '{}'", observer, key, e);
      }
    }
  }

  private Duration since(long nanos) {
    return Duration.ofNanos(Math.max(0, time.now() - nanos));
  }
}
