package dev.baton.reactor;

import dev.baton.Lease;
import dev.baton.LostReason;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * A {@link Lease}'s release and loss as publishers.
 *
 * <p>{@link Lease#close()} is a call to the store that waits for its answer, and Baton has no asynchronous release:
 * so {@link #release} runs it on {@link Schedulers#boundedElastic()}, never on the thread that subscribes, which may be
 * a Reactor thread or a store's I/O thread.
 */
public final class ReactiveLeases {
  private static final Logger log = Loggers.getLogger(ReactiveLeases.class);

  private ReactiveLeases() {}

  /**
   * Releases {@code lease} when subscribed, on {@link Schedulers#boundedElastic()}, and completes when the store has
   * it; does nothing to a lease no longer held. Fails with what {@link Lease#close()} throws, such as a
   * {@link dev.baton.PermissionDeniedException}.
   *
   * @throws IllegalArgumentException if {@code lease} is null
   */
  public static Mono<Void> release(Lease lease) {
    checkLease(lease);
    return Mono.fromRunnable(lease::close).subscribeOn(Schedulers.boundedElastic()).then();
  }

  /**
   * Emits the reason once {@code lease} ends other than by its release (lost, its hold timeout passed, its client
   * closed), on the client's event thread: as {@link Lease#onLost} tells it, at once if that already happened. Never
   * completes for a lease that is released.
   *
   * @throws IllegalArgumentException if {@code lease} is null
   */
  public static Mono<LostReason> lost(Lease lease) {
    checkLease(lease);
    return Mono.create(sink -> lease.onLost(sink::success));
  }

  /** Releases {@code lease} on {@link Schedulers#boundedElastic()} without waiting, logging a failure. */
  static void releaseInBackground(Lease lease) {
    release(lease).subscribe(null, failure -> log.warn("The release of lock '{}' failed", lease.key(), failure));
  }

  private static void checkLease(Lease lease) {
    if (lease == null) {
      throw new IllegalArgumentException("The lease must not be null: pass the one an acquire emitted.");
    }
  }
}
