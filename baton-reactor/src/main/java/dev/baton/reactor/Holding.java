package dev.baton.reactor;

import dev.baton.Lease;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** A body run while a lease is held: released when the body completes, fails or is cancelled. */
final class Holding {
  private Holding() {}

  static <T> Mono<T> mono(Mono<Lease> acquire, Function<? super Lease, ? extends Mono<? extends T>> body) {
    checkBody(body);
    return Mono.usingWhen(acquire, body, ReactiveLeases::release, (lease, error) -> ReactiveLeases.release(lease),
        ReactiveLeases::release);
  }

  static <T> Flux<T> flux(Mono<Lease> acquire, Function<? super Lease, ? extends Publisher<? extends T>> body) {
    checkBody(body);
    return Flux.usingWhen(acquire, body, ReactiveLeases::release, (lease, error) -> ReactiveLeases.release(lease),
        ReactiveLeases::release);
  }

  private static void checkBody(Function<?, ?> body) {
    if (body == null) {
      throw new IllegalArgumentException("The body must not be null: pass a function of the lease to the publisher "
          + "to run while it is held.");
    }
  }
}
