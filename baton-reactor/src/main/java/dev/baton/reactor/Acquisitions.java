package dev.baton.reactor;

import dev.baton.Lease;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * A lease as a {@link Mono}: the acquire starts on subscription, a cancel before the grant cancels it (which abandons
 * it at the store, and releases a lease the store grants after all), and a lease granted but dropped by a cancel that
 * raced with it is released.
 */
final class Acquisitions {
  private Acquisitions() {}

  static Mono<Lease> lazily(Supplier<CompletableFuture<Lease>> acquire) {
    return Mono.fromFuture(acquire, false).doOnDiscard(Lease.class, ReactiveLeases::releaseInBackground);
  }
}
