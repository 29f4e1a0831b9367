package dev.baton;

import java.time.Duration;

/**
 * Told what the locks of a client do, for metrics and tracing: register one with
 * {@link LockClient#observe(LockObserver)}. The outcome of an acquire ({@link #acquired}, {@link #timedOut},
 * {@link #failed}) is told on the acquiring thread; the life of a held lease ({@link #renewed}, {@link #ended}) on
 * the client's event thread, in order, the thread that runs lost-lock listeners: never on the watchdog or a store's
 * I/O thread, so a slow observer delays no renewal, but it does delay the events after it, so return quickly. An
 * exception an observer throws is logged and otherwise ignored. Every method does nothing unless overridden.
 */
public interface LockObserver {

  /**
   * An acquire of {@code key} begins, on the acquiring thread; the same thread is told of its outcome next
   * ({@link #acquired}, {@link #timedOut} or {@link #failed}), so that a trace can follow the wait.
   */
  default void acquiring(String key) {}

  /** An acquire returned a held lease after waiting {@code waited}, in the local queue and at the store. */
  default void acquired(String key, Duration waited) {}

  /** An acquire gave up because its wait time passed, or a try found the lock taken. */
  default void timedOut(String key, Duration waited) {}

  /** An acquire failed for another reason: the store was unreachable, the client closed, the thread interrupted. */
  default void failed(String key, Duration waited, Throwable error) {}

  /**
   * A lease ended after it was held for {@code heldFor}.
   *
   * @param reason null if its holder released it; otherwise why it ended, as its lost-lock listeners are told
   */
  default void ended(String key, Duration heldFor, LostReason reason) {}

  /** The watchdog renewed a held lease at the store ({@code true}), or a renewal failed and will be retried. */
  default void renewed(String key, boolean succeeded) {}
}
