package dev.baton.postgres;

import dev.baton.BackendUnavailableException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the expired entries of every key, in the background of each client, every {@code sweepEvery}
 * ({@code sweep.sql}): the rows of a holder or waiter that crashed, which an acquire deletes only for its own key.
 * So no entry outlives its expiry by more than {@code sweepEvery} and one round while any client of the table runs.
 * A round deletes in batches until a batch comes back short, up to {@link #MAX_BATCHES} of them; a round that fails
 * is not retried before the next one.
 *
 * <p>Threads: one daemon thread of its own; its rounds never overlap.
 */
final class Sweeper implements AutoCloseable {
  /** Entries per statement: each keeps its keys' advisory locks (one per key) until it ends. */
  static final int BATCH = 200;
  /** Statements per round at the most, so that a backlog is worked off over several rounds. */
  static final int MAX_BATCHES = 50;
  private static final Logger log = LoggerFactory.getLogger(Sweeper.class);

  private final PostgresCalls calls;
  private final Sql sql;
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(task -> {
    Thread sweeper = new Thread(task, "baton-postgres-sweep");
    sweeper.setDaemon(true);
    return sweeper;
  });
  /** Whether the last round's failure was logged at warn: a refusal is told once, until a round succeeds. */
  private boolean warned;

  private Sweeper(PostgresCalls calls, Sql sql) {
    this.calls = calls;
    this.sql = sql;
  }

  /** Starts sweeping every {@code every}, the first time {@code every} from now. */
  static Sweeper start(PostgresCalls calls, Sql sql, Duration every) {
    Sweeper sweeper = new Sweeper(calls, sql);
    long millis = Math.max(1, every.toMillis());
    sweeper.thread.scheduleWithFixedDelay(sweeper::round, millis, millis, TimeUnit.MILLISECONDS);
    return sweeper;
  }

  private void round() {
    try {
      int batches = 0;
      long deleted = 0;
      int last;
      do {
        last = deleteBatch();
        deleted += last;
      } while (last == BATCH && ++batches < MAX_BATCHES);
      if (deleted > 0) {
        log.debug("Deleted {} expired entries from {}", deleted, sql.table);
      }
      warned = false;
    } catch (BackendUnavailableException e) {
      log.debug("The removal of expired entries failed; trying again in the next round", e);
    } catch (RuntimeException e) { // a refusal or a table not set up: a task that throws is never run again
      if (!warned) {
        log.warn("Expired entries of crashed clients cannot be removed from {}, so they stay until their key is"
            + " acquired again: {}", sql.table, e.getMessage());
        warned = true;
      }
    }
  }

  /** Deletes one batch; how many entries it deleted. */
  private int deleteBatch() {
    return calls.call("Removing expired entries from " + sql.table, connection -> {
      try (PreparedStatement sweep = calls.prepare(connection, sql.sweep)) {
        sweep.setInt(1, BATCH);
        sweep.setString(2, sql.channel());
        try (ResultSet row = sweep.executeQuery()) {
          row.next();
          return row.getInt(1);
        }
      }
    });
  }

  /** Stops sweeping; a round under way ends with its call once the connections are closed. */
  @Override
  public void close() {
    thread.shutdownNow();
  }

  /** Waits up to {@code timeout} for a round under way to end. */
  void awaitTermination(Duration timeout) throws InterruptedException {
    thread.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }
}
