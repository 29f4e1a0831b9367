package dev.baton.engine;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One pool of a client's threads, stopped when the client closes. Closing may come from one of these very threads (a
 * lost-lock or leadership listener, a callback of an asynchronous acquire that closes the client): then the pool is
 * shut down without waiting for that thread, which is busy running the caller, and without interrupting it (an
 * interrupt would fail the store calls the rest of the close makes); the thread ends once its task returns.
 */
final class ClientThreads {
  private final DaemonThreads factory;
  private final ExecutorService executor;

  /**
   * @param purpose what the threads do, in their names
   * @param pool makes the executor from the thread factory given
   */
  ClientThreads(String purpose, String clientId, Function<ThreadFactory, ExecutorService> pool) {
    this.factory = new DaemonThreads(purpose, clientId);
    this.executor = pool.apply(factory);
  }

  ExecutorService executor() {
    return executor;
  }

  /** Whether the calling thread is one of this pool's. */
  boolean runsCurrentThread() {
    return factory.madeCurrentThread();
  }

  /** Takes no more tasks; those queued still run. */
  void shutdown() {
    executor.shutdown();
  }

  /**
   * Waits up to {@code millis} for the tasks to end, then interrupts those still running; returns at once when called
   * from one of the pool's threads.
   */
  void awaitStopped(long millis) {
    if (runsCurrentThread()) {
      return;
    }
    try {
      if (!executor.awaitTermination(millis, TimeUnit.MILLISECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
