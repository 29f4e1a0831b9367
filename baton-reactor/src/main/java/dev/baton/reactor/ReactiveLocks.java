package dev.baton.reactor;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockOptions;
import java.time.Duration;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Locks as Reactor publishers: a {@link Mono} of the {@link Lease}, and {@link Mono#usingWhen}-style helpers that run
 * a {@link Mono} ({@code withLock}) or any {@link Publisher} ({@code withLockMany}) while holding a lock. Either side of
 * a {@link dev.baton.DistributedReadWriteLock} is a {@link DistributedLock}: pass {@code readLock()} or
 * {@code writeLock()}.
 *
 * <pre>{@code
 * Mono<Receipt> receipt = ReactiveLocks.withLock(client.lock("order-" + id), Duration.ofSeconds(5),
 *     lease -> payments.charge(id, lease.fencingToken()));
 * }</pre>
 *
 * <ul>
 *   <li><b>Lazy.</b> Nothing happens until subscription; each subscription acquires anew, with
 *       {@link DistributedLock#acquireAsync}.
 *   <li><b>Cancellable.</b> Cancelling the subscription while the acquire waits abandons it at the store (nothing is
 *       left there), and a lease granted after all is released at once.
 *   <li><b>Errors.</b> A wait time that passes is a {@link dev.baton.LockTimeoutException}, an unreachable store a
 *       {@link dev.baton.BackendUnavailableException}, a closed client an {@link IllegalStateException}: as error
 *       signals.
 *   <li><b>Threads.</b> The lease is emitted on the client's thread that completes the acquire, and the helpers'
 *       results after a release on {@link reactor.core.scheduler.Schedulers#boundedElastic()}: do not block there
 *       ({@code publishOn} a scheduler of your own for blocking work).
 *   <li><b>Release.</b> The helpers release the lease when the body completes, fails or is cancelled, with
 *       {@link ReactiveLeases#release}, off the calling thread; a failed release after a completed body is the
 *       result's error.
 * </ul>
 */
public final class ReactiveLocks {
  private ReactiveLocks() {}

  /**
   * Acquires {@code lock} on subscription, waiting as its options say (by default, without limit).
   *
   * @throws IllegalArgumentException if {@code lock} is null
   */
  public static Mono<Lease> acquire(DistributedLock lock) {
    checkLock(lock);
    return Acquisitions.lazily(lock::acquireAsync);
  }

  /**
   * Acquires {@code lock} on subscription, waiting at most {@code waitTime} ({@code Duration.ZERO}: try once), else
   * fails with a {@link dev.baton.LockTimeoutException}.
   *
   * @throws IllegalArgumentException if {@code lock} is null, or {@code waitTime} null, negative or over 365 days
   */
  public static Mono<Lease> acquire(DistributedLock lock, Duration waitTime) {
    checkLock(lock);
    return acquire(lock, lock.options().withWaitTime(WaitTimes.checked(waitTime)));
  }

  /**
   * Acquires {@code lock} on subscription with {@code options} instead of the handle's.
   *
   * @throws IllegalArgumentException if {@code lock} or {@code options} is null
   */
  public static Mono<Lease> acquire(DistributedLock lock, LockOptions options) {
    checkLock(lock);
    if (options == null) {
      throw new IllegalArgumentException("The options of lock '" + lock.key() + "' must not be null; use "
          + "acquire(lock) for the handle's own, or LockOptions.defaults().");
    }
    return Acquisitions.lazily(() -> lock.acquireAsync(options));
  }

  /**
   * Runs the {@link Mono} that {@code body} makes of the lease while holding {@code lock} (acquired as its options
   * say), and releases it when that Mono completes, fails or is cancelled.
   *
   * @throws IllegalArgumentException if {@code lock} or {@code body} is null
   */
  public static <T> Mono<T> withLock(DistributedLock lock, Function<? super Lease, ? extends Mono<? extends T>> body) {
    return Holding.mono(acquire(lock), body);
  }

  /**
   * As {@link #withLock(DistributedLock, Function)}, waiting at most {@code waitTime} for the lock.
   *
   * @throws IllegalArgumentException if an argument is null, or {@code waitTime} negative or over 365 days
   */
  public static <T> Mono<T> withLock(DistributedLock lock, Duration waitTime,
      Function<? super Lease, ? extends Mono<? extends T>> body) {
    return Holding.mono(acquire(lock, waitTime), body);
  }

  /**
   * Runs the {@link Publisher} (a {@link Flux}, say) that {@code body} makes of the lease while holding {@code lock}
   * (acquired as its options say), and releases it when that publisher completes, fails or is cancelled.
   *
   * @throws IllegalArgumentException if {@code lock} or {@code body} is null
   */
  public static <T> Flux<T> withLockMany(DistributedLock lock,
      Function<? super Lease, ? extends Publisher<? extends T>> body) {
    return Holding.flux(acquire(lock), body);
  }

  /**
   * As {@link #withLockMany(DistributedLock, Function)}, waiting at most {@code waitTime} for the lock.
   *
   * @throws IllegalArgumentException if an argument is null, or {@code waitTime} negative or over 365 days
   */
  public static <T> Flux<T> withLockMany(DistributedLock lock, Duration waitTime,
      Function<? super Lease, ? extends Publisher<? extends T>> body) {
    return Holding.flux(acquire(lock, waitTime), body);
  }

  private static void checkLock(DistributedLock lock) {
    if (lock == null) {
      throw new IllegalArgumentException("The lock must not be null: take one with client.lock(key), or a side of "
          + "client.readWriteLock(key).");
    }
  }
}
