package dev.baton;

import java.time.Duration;

/**
 * Told what the locks of a client do, for metrics and tracing: register one with
 * {@link LockClient#observe(LockObserver)}. The outcome of an acquire ({@link #acquired}, {@link #timedOut},
 * {@link #failed}) is told on the acquiring thread; the life of a held lease ({@link #renewed}, {@link #ended}) on
 * the client's event thread, in order, the thread that runs lost-lock listeners: never on the watchdog or a store's
 * I/O thread, so a slow observer delays no renewal, but it does delay the events after it, so return quickly. An
 * exception an observer throws is logged and otherwise ignored. Every method does nothing unless overridden. Each
 * is told the key and the {@link Primitive} its handle was taken as: a lock, a read or write lock, a semaphore's
 * permit or a leadership term (whose acquire waits as long as its candidate stands).
 *
 * <p>An {@code acquireAsync} has no acquiring thread: its start and its outcome are told together, one after the
 * other, on the client's thread that completes its future, with the wait counted from the call.
 */
public interface LockObserver {

  /**
   * An acquire of {@code key} begins, on the acquiring thread; the same thread is told of its outcome next
   * ({@link #acquired}, {@link #timedOut} or {@link #failed}), so that a trace can follow the wait.
   */
  default void acquiring(String key, Primitive primitive) {}

  /**
   * An acquire returned {@code lease}, held, after waiting {@code waited}, in the local queue and at the store. Its
   * {@link #renewed} and {@link #ended} events name the same object: several leases of one key (readers, permits)
   * may be held at once and end in any order.
   */
  default void acquired(Lease lease, Primitive primitive, Duration waited) {}

  /** An acquire gave up because its wait time passed, or a try found the lock taken. */
  default void timedOut(String key, Primitive primitive, Duration waited) {}

  /** An acquire failed for another reason: the store was unreachable, the client closed, the thread interrupted. */
  default void failed(String key, Primitive primitive, Duration waited, Throwable error) {}

  /**
   * A lease ended after it was held for {@code heldFor}. The end of a lease handed over to another holder in this
   * client may be told after that holder's {@link #acquired}: they are two leases on one entry.
   *
   * @param reason null if its holder released it; otherwise why it ended, as its lost-lock listeners are told
   */
  default void ended(Lease lease, Primitive primitive, Duration heldFor, LostReason reason) {}

  /**
   * The watchdog renewed a held lease's entry at the store ({@code true}), or a renewal failed and will be retried.
   * Leases that share one entry (readers of one client) are renewed as one, and told of once, naming one of them.
   */
  default void renewed(Lease lease, Primitive primitive, boolean succeeded) {}
}
