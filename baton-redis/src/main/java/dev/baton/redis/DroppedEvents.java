package dev.baton.redis;

import io.lettuce.core.event.Event;
import io.lettuce.core.event.EventBus;
import reactor.core.publisher.Flux;

/**
 * The event bus of a link to one server or a Sentinel master, where nothing listens: Lettuce's events (connected,
 * reconnected, and so on) are dropped as they are published. Lettuce's own bus starts a Reactor scheduler and a sink
 * as the client's resources are built, about a fifth of their CPU on a {@code baton exec}'s main thread (measured in
 * bench/notes.md); a cluster's link keeps it, since {@link ClusterShards} listens there for changes of the slots.
 */
final class DroppedEvents implements EventBus {
  static final DroppedEvents INSTANCE = new DroppedEvents();

  private DroppedEvents() {
  }

  @Override
  public Flux<Event> get() {
    return Flux.empty();
  }

  @Override
  public void publish(Event event) {
    // Nothing listens on a one-server link's bus: the event goes nowhere.
  }
}
