package dev.baton.engine;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/** Runs user callbacks on one event thread per client, in order, away from the watchdog and I/O threads. */
final class Events {
  private final ExecutorService executor;

  Events(String clientId) {
    executor = Executors.newSingleThreadExecutor(new DaemonThreads("events", clientId));
  }

  void dispatch(Runnable callback) {
    try {
      executor.execute(callback);
    } catch (RejectedExecutionException closed) {
      callback.run();
    }
  }

  /** Runs what is queued, for at most {@code millis}, then stops the thread. */
  void close(long millis) {
    executor.shutdown();
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
