package dev.baton.engine;

import dev.baton.BackendUnavailableException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries, in the background, a release or clean-up that failed because the store could not be
 * reached, until it succeeds or the client closes (after which the store's own expiry removes what is
 * left). This is what keeps an interrupted or timed-out acquire from leaving an orphan entry behind.
 */
final class Cleanup {
  private static final Logger log = LoggerFactory.getLogger(Cleanup.class);
  private static final long FIRST_DELAY_MILLIS = 50;
  private static final long MAX_DELAY_MILLIS = 5_000;

  private final EngineTime time;
  private final Executor workers;

  Cleanup(EngineTime time, Executor workers) {
    this.time = time;
    this.workers = workers;
  }

  /** Runs {@code action} now; if the store cannot be reached, again later until it can. */
  void run(String what, Runnable action) {
    try {
      action.run();
    } catch (BackendUnavailableException e) {
      log.info("{} failed ({}); retrying in the background", what, e.getMessage());
      retryLater(what, action, FIRST_DELAY_MILLIS);
    }
  }

  /** Runs {@code action} in the background, retrying while the store cannot be reached. */
  void runLater(String what, Runnable action) {
    retryLater(what, action, 0);
  }

  private void retryLater(String what, Runnable action, long delayMillis) {
    try {
      time.schedule(() -> workers.execute(() -> attempt(what, action, delayMillis)), TimeUnit.MILLISECONDS.toNanos(delayMillis));
    } catch (RejectedExecutionException closed) {
      log.warn("{} abandoned because the client closed; the store's expiry will remove the entry", what);
    }
  }

  private void attempt(String what, Runnable action, long lastDelayMillis) {
    try {
      action.run();
    } catch (BackendUnavailableException e) {
      retryLater(what, action, Math.min(Math.max(lastDelayMillis * 2, FIRST_DELAY_MILLIS), MAX_DELAY_MILLIS));
    } catch (RuntimeException e) {
      log.warn("{} failed and is not retried", what, e);
    }
  }
}
