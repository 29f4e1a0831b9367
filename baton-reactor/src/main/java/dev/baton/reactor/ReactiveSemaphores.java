package dev.baton.reactor;

import dev.baton.DistributedSemaphore;
import dev.baton.Lease;
import dev.baton.LockTimeoutException;
import java.time.Duration;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Semaphores as Reactor publishers: a {@link Mono} of a permit's {@link Lease}, and helpers that run a {@link Mono}
 * ({@code withPermit}) or any {@link Publisher} ({@code withPermitMany}) while holding a permit. They behave as
 * {@link ReactiveLocks}' do: lazy, cancellable (a cancelled wait leaves nothing at the store), releasing on complete,
 * error and cancel without blocking the calling thread.
 *
 * <p>A semaphore's handle takes no options per acquire, so a wait time given here is kept by a Reactor timer
 * ({@link Mono#timeout(Duration)} on {@link Schedulers#parallel()}) that cancels the wait and fails with a
 * {@link LockTimeoutException}; {@code Duration.ZERO} tries once with {@link DistributedSemaphore#tryAcquire()} on
 * {@link Schedulers#boundedElastic()}. The handle's own wait time, if it has one, still applies.
 */
public final class ReactiveSemaphores {
  private ReactiveSemaphores() {}

  /**
   * Takes a permit of {@code semaphore} on subscription, waiting as its options say (by default, without limit).
   *
   * @throws IllegalArgumentException if {@code semaphore} is null
   */
  public static Mono<Lease> acquire(DistributedSemaphore semaphore) {
    checkSemaphore(semaphore);
    return Acquisitions.lazily(semaphore::acquireAsync);
  }

  /**
   * Takes a permit of {@code semaphore} on subscription, waiting at most {@code waitTime} ({@code Duration.ZERO}: try
   * once), else fails with a {@link LockTimeoutException}.
   *
   * @throws IllegalArgumentException if {@code semaphore} is null, or {@code waitTime} null, negative or over 365 days
   */
  public static Mono<Lease> acquire(DistributedSemaphore semaphore, Duration waitTime) {
    checkSemaphore(semaphore);
    Duration wait = WaitTimes.checked(waitTime);
    if (wait.isZero()) {
      return Mono.fromCallable(() -> semaphore.tryAcquire().orElseThrow(() -> timeout(semaphore, wait)))
          .subscribeOn(Schedulers.boundedElastic())
          .doOnDiscard(Lease.class, ReactiveLeases::releaseInBackground);
    }
    return acquire(semaphore).timeout(wait, Mono.error(() -> timeout(semaphore, wait)));
  }

  /**
   * Runs the {@link Mono} that {@code body} makes of a permit's lease while holding it (taken as the semaphore's
   * options say), and releases it when that Mono completes, fails or is cancelled.
   *
   * @throws IllegalArgumentException if {@code semaphore} or {@code body} is null
   */
  public static <T> Mono<T> withPermit(DistributedSemaphore semaphore,
      Function<? super Lease, ? extends Mono<? extends T>> body) {
    return Holding.mono(acquire(semaphore), body);
  }

  /**
   * As {@link #withPermit(DistributedSemaphore, Function)}, waiting at most {@code waitTime} for a permit.
   *
   * @throws IllegalArgumentException if an argument is null, or {@code waitTime} negative or over 365 days
   */
  public static <T> Mono<T> withPermit(DistributedSemaphore semaphore, Duration waitTime,
      Function<? super Lease, ? extends Mono<? extends T>> body) {
    return Holding.mono(acquire(semaphore, waitTime), body);
  }

  /**
   * Runs the {@link Publisher} that {@code body} makes of a permit's lease while holding it (taken as the semaphore's
   * options say), and releases it when that publisher completes, fails or is cancelled.
   *
   * @throws IllegalArgumentException if {@code semaphore} or {@code body} is null
   */
  public static <T> Flux<T> withPermitMany(DistributedSemaphore semaphore,
      Function<? super Lease, ? extends Publisher<? extends T>> body) {
    return Holding.flux(acquire(semaphore), body);
  }

  /**
   * As {@link #withPermitMany(DistributedSemaphore, Function)}, waiting at most {@code waitTime} for a permit.
   *
   * @throws IllegalArgumentException if an argument is null, or {@code waitTime} negative or over 365 days
   */
  public static <T> Flux<T> withPermitMany(DistributedSemaphore semaphore, Duration waitTime,
      Function<? super Lease, ? extends Publisher<? extends T>> body) {
    return Holding.flux(acquire(semaphore, waitTime), body);
  }

  private static LockTimeoutException timeout(DistributedSemaphore semaphore, Duration waitTime) {
    return new LockTimeoutException("No permit of semaphore '" + semaphore.key() + "' (" + semaphore.permits()
        + " permits) was free within " + waitTime.toMillis() + " ms: their holders keep them. Wait longer, or retry "
        + "later.");
  }

  private static void checkSemaphore(DistributedSemaphore semaphore) {
    if (semaphore == null) {
      throw new IllegalArgumentException("The semaphore must not be null: take one with client.semaphore(key, "
          + "permits).");
    }
  }
}
