package dev.baton;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Lock;

/**
 * A named lock shared by every process that uses the same store and key.
 *
 * <p>Two ways to hold it:
 *
 * <ul>
 *   <li>{@link #acquire()} and its variants return a {@link Lease}: a token that is not bound to a
 *       thread, released by {@link Lease#close()} from any thread, with a fencing token and a
 *       lost-lock callback. Not reentrant: a second acquire waits like any other.
 *   <li>The {@link Lock} methods ({@link #lock()}, {@link #tryLock()}, {@link #unlock()}) own the lock
 *       per thread and are reentrant, as {@link java.util.concurrent.locks.ReentrantLock} is.
 * </ul>
 *
 * <p>Handles are cheap; hold on to the {@link LockClient}, not to handles.
 */
public interface DistributedLock extends Lock {

  /** The key this handle locks; for a {@link LockClient#multiLock}, the first of its {@link #keys()}. */
  String key();

  /** Every key this handle locks, in the order it takes them: its {@link #key()} alone, or a multi-lock's keys. */
  default List<String> keys() {
    return List.of(key());
  }

  /** The options the no-argument methods use. */
  LockOptions options();

  /**
   * Waits as long as the options allow (by default, without limit) and returns the held lease.
   *
   * @throws LockTimeoutException if the options' wait time passed first
   * @throws BackendUnavailableException if the store could not be reached within the wait time (or the ttl
   *     when there is no wait time)
   * @throws InterruptedException if the thread was interrupted while waiting; nothing is left at the store
   */
  Lease acquire() throws InterruptedException;

  /** As {@link #acquire()}, waiting at most {@code waitTime} ({@code Duration.ZERO}: try once). */
  Lease acquire(Duration waitTime) throws InterruptedException;

  /** As {@link #acquire()}, with these options instead of the handle's. */
  Lease acquire(LockOptions options) throws InterruptedException;

  /**
   * Tries once, without waiting for another holder.
   *
   * @return the lease, or empty if someone else holds the lock
   */
  Optional<Lease> tryAcquire();

  /**
   * Acquires as {@link #acquire()} does, without a thread waiting: a pending acquire is a registration in the local
   * queue and at the store, woken by the store's wake-up, a timer or the local queue, and its store calls run on a few
   * threads of the client's own. The future completes on another thread of the client, made when needed, so that a
   * callback that blocks holds up no acquire of the client. Cancelling the future stops the wait (the clean-up at the
   * store runs in the background, just after {@code cancel} returns) and
   * leaves nothing at the store; a lease granted after cancellation is released at once. If the client closes first,
   * the future completes exceptionally with an {@link IllegalStateException}.
   */
  CompletableFuture<Lease> acquireAsync();

  /** As {@link #acquireAsync()}, with these options instead of the handle's. */
  CompletableFuture<Lease> acquireAsync(LockOptions options);

  /** Whether the calling thread holds this lock through the {@link Lock} methods and it is still valid. */
  boolean isHeldByCurrentThread();

  /**
   * Releases one hold of the calling thread.
   *
   * @throws IllegalMonitorStateException if the calling thread does not hold the lock
   * @throws LockLostException if this was the last hold and the lock had been lost while it was held: the
   *     critical section was not protected
   */
  @Override
  void unlock();
}
