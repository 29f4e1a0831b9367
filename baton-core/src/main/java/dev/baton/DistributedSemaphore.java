package dev.baton;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A named semaphore shared by every process that uses the same store and key: at most {@link #permits()} holders at
 * once across all clients. Each permit is a {@link Lease}, with everything a mutex's lease has: a fencing token that
 * grows with every permit granted on the key, renewal while held, a hold timeout, a lost-permit callback, and a permit
 * freed within its ttl when its holder's process dies. Waiters are served in order of arrival.
 *
 * <p>Leases are not bound to threads and are not reentrant: every acquire takes a permit of its own.
 */
public interface DistributedSemaphore {

  /** The key this handle's permits are counted under. */
  String key();

  /** How many permits may be held at once. */
  int permits();

  /** The options the no-argument methods use. */
  LockOptions options();

  /**
   * Waits as long as the options allow (by default, without limit) for a permit.
   *
   * @throws LockTimeoutException if the options' wait time passed first
   * @throws BackendUnavailableException if the store could not be reached in time
   * @throws InterruptedException if the thread was interrupted while waiting; nothing is left at the store
   */
  Lease acquire() throws InterruptedException;

  /**
   * Waits at most {@code waitTime} for a permit.
   *
   * @throws LockTimeoutException if no permit was free in time
   * @throws InterruptedException if the thread was interrupted while waiting; nothing is left at the store
   */
  Lease acquire(Duration waitTime) throws InterruptedException;

  /** Takes a permit if one is free now, without waiting. */
  Optional<Lease> tryAcquire();

  /**
   * Waits for a permit without a thread waiting, as {@link DistributedLock#acquireAsync()} does; cancelling the future
   * gives up and leaves nothing at the store.
   */
  CompletableFuture<Lease> acquireAsync();
}
