package dev.baton.engine;

import dev.baton.spi.Ticker;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * The time one client's engine reads, waits by and schedules by: the system's, with a scheduler thread of the
 * client's own (the watchdog's), or a {@link Ticker}'s, which tests move themselves. Once {@link #shutdown shut down}
 * it refuses new tasks with {@link RejectedExecutionException} and drops the pending ones.
 */
abstract class EngineTime {

  /** Nanoseconds since some fixed origin. */
  abstract long now();

  /** Waits on {@code condition}, whose lock the caller holds, as {@link Condition#awaitNanos} does. */
  abstract long awaitNanos(Condition condition, long nanos) throws InterruptedException;

  /**
   * Runs {@code task} once {@code delayNanos} from now.
   *
   * @throws RejectedExecutionException once shut down
   */
  final Future<?> schedule(Runnable task, long delayNanos) {
    return scheduleAt(task, now() + delayNanos);
  }

  /**
   * Runs {@code task} once at {@code atNanos} of this time (at once if that has passed): a time and not a delay, so
   * that a deadline computed earlier is kept however much time moved since.
   *
   * @throws RejectedExecutionException once shut down
   */
  abstract Future<?> scheduleAt(Runnable task, long atNanos);

  abstract void shutdown();

  /** The system's time, with one scheduler thread named after the client. */
  static EngineTime system(String clientId) {
    return new SystemTime(clientId);
  }

  /** A ticker's time. */
  static EngineTime of(Ticker ticker) {
    return new TickerTime(ticker);
  }

  private static final class SystemTime extends EngineTime {
    private final ScheduledThreadPoolExecutor scheduler;

    SystemTime(String clientId) {
      scheduler = new ScheduledThreadPoolExecutor(1, new DaemonThreads("watchdog", clientId));
      scheduler.setRemoveOnCancelPolicy(true);
      scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    long now() {
      return System.nanoTime();
    }

    @Override
    long awaitNanos(Condition condition, long nanos) throws InterruptedException {
      return condition.awaitNanos(nanos);
    }

    @Override
    Future<?> scheduleAt(Runnable task, long atNanos) {
      return scheduler.schedule(task, atNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    /**
     * Drops the pending tasks without interrupting a running one: the client may be closing from a task of this very
     * thread, and an interrupt would fail the store calls the rest of its close makes. A task does not block.
     */
    @Override
    void shutdown() {
      scheduler.shutdown();
    }
  }

  private static final class TickerTime extends EngineTime {
    private final Ticker ticker;
    private final Set<Future<?>> pending = ConcurrentHashMap.newKeySet();
    private volatile boolean shutDown;

    TickerTime(Ticker ticker) {
      this.ticker = ticker;
    }

    @Override
    long now() {
      return ticker.read();
    }

    @Override
    long awaitNanos(Condition condition, long nanos) throws InterruptedException {
      return ticker.awaitNanos(condition, nanos);
    }

    @Override
    Future<?> scheduleAt(Runnable task, long atNanos) {
      if (shutDown) {
        throw new RejectedExecutionException("The client is closed");
      }
      FutureTask<Void> future = new FutureTask<>(task, null) {
        @Override
        protected void done() {
          pending.remove(this);
        }
      };
      pending.add(future);
      if (shutDown) {
        future.cancel(false);
      }
      // A cancelled FutureTask does nothing when run: the ticker need not know of cancellations. Nor does one that
      // ran, so the task may be given again: if time moved while it was given with a delay read before, it could run
      // that much late, and is given again with the delay from the new time until time stood still around a giving.
      long before;
      do {
        before = ticker.read();
        ticker.schedule(future, atNanos - before);
      } while (ticker.read() != before);
      return future;
    }

    @Override
    void shutdown() {
      shutDown = true;
      pending.forEach(future -> future.cancel(false));
    }
  }
}
