package dev.baton;

import java.time.Duration;

/**
 * Told what the locks of a client do, for metrics and tracing: register one with
 * {@link LockClient#observe(LockObserver)}. Methods are called on the thread where the event happens (the
 * acquiring thread, the watchdog, the store's I/O threads): they must return quickly and must not block. An
 * exception an observer throws is logged and otherwise ignored. Every method does nothing unless overridden.
 */
public interface LockObserver {

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
