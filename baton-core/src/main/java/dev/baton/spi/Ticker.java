package dev.baton.spi;

import java.util.concurrent.locks.Condition;

/**
 * The time a client's engine reads, waits by and schedules by, in nanoseconds as {@link System#nanoTime()} counts
 * them. A client made by {@link ClientFactory#newClient(LockBackend, dev.baton.LockOptions)} runs on the system's
 * time, with a scheduler thread of its own; a test kit passes a ticker of its own to
 * {@link ClientFactory#newClient(LockBackend, dev.baton.LockOptions, Ticker)} to move time itself, so that hold
 * timeouts, renewals and losses happen when the test says and not after a real wait.
 *
 * <p>The engine calls a ticker from many threads at once.
 */
public interface Ticker {

  /** Nanoseconds since some fixed origin; only differences mean anything. */
  long read();

  /**
   * Waits until {@code condition} is signalled or {@code nanos} of this ticker's time have passed, as
   * {@link Condition#awaitNanos} does: the caller holds the condition's lock, and the return value is the time left,
   * zero or less once it has passed. It may return early (a spurious wake-up); callers check and wait again.
   *
   * @throws InterruptedException if the waiting thread is interrupted
   */
  long awaitNanos(Condition condition, long nanos) throws InterruptedException;

  /**
   * Runs {@code task} once, when {@code delayNanos} of this ticker's time have passed. Tasks are short and must not
   * block; the engine cancels one by making it do nothing.
   */
  void schedule(Runnable task, long delayNanos);
}
