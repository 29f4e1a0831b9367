package dev.baton.engine;

import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/** Runs user callbacks on one event thread per client, in order, away from the watchdog and I/O threads. */
final class Events {
  private final ClientThreads thread;

  Events(String clientId) {
    thread = new ClientThreads("events", clientId, Executors::newSingleThreadExecutor);
  }

  void dispatch(Runnable callback) {
    try {
      thread.executor().execute(callback);
    } catch (RejectedExecutionException closed) {
      callback.run();
    }
  }

  /** Whether the calling thread is the event thread: a callback running now. */
  boolean runsCurrentThread() {
    return thread.runsCurrentThread();
  }

  /**
   * Runs what is queued, for at most {@code millis}, then stops the thread. Called from a callback, it returns at once:
   * what is queued runs after that callback, and the thread ends then.
   */
  void close(long millis) {
    thread.shutdown();
    thread.awaitStopped(millis);
  }
}
