package dev.baton.jdbc;

import dev.baton.BackendUnavailableException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the expired entries of every key, in the background of each client, every {@code sweepEvery} (the store's
 * {@code sweep.sql}, through its {@link BatchDelete}): the rows of a holder or waiter that crashed. So no entry
 * outlives its expiry by more than {@code sweepEvery} and one round while any client of the table runs. A round
 * deletes in batches until a batch comes back short, up to {@link #MAX_BATCHES} of them; a round that fails is not
 * retried before the next one.
 *
 * <p>Threads: one daemon thread of its own; its rounds never overlap.
 */
public final class Sweeper implements AutoCloseable {
  /** Entries per statement (on PostgreSQL each keeps its keys' advisory locks, one per key, until it ends). */
  public static final int BATCH = 200;
  /** Statements per round at the most, so that a backlog is worked off over several rounds. */
  public static final int MAX_BATCHES = 50;
  private static final Logger log = LoggerFactory.getLogger(Sweeper.class);

  /** The store's statement that deletes a batch of expired entries. */
  @FunctionalInterface
  public interface BatchDelete {
    /** Deletes at most {@code limit} expired entries in the call on {@code connection}; how many it deleted. */
    int delete(Connection connection, int limit) throws SQLException;
  }

  private final JdbcCalls calls;
  private final String table;
  private final BatchDelete batch;
  private final String otherwise;
  private final ScheduledExecutorService thread;
  /** Whether the last round's failure was logged at warn: a refusal is told once, until a round succeeds. */
  private boolean warned;

  private Sweeper(JdbcCalls calls, String table, BatchDelete batch, String otherwise, String threadName) {
    this.calls = calls;
    this.table = table;
    this.batch = batch;
    this.otherwise = otherwise;
    this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread sweeper = new Thread(task, threadName);
      sweeper.setDaemon(true);
      return sweeper;
    });
  }

  /**
   * Starts sweeping {@code table} with {@code batch} every {@code every}, the first time {@code every} from now, on a
   * thread named {@code threadName}; {@code otherwise} says, in the warning of a sweep refused, until when the expired
   * entries stay (e.g. {@code "until their key is acquired again"}).
   */
  public static Sweeper start(JdbcCalls calls, String table, BatchDelete batch, String otherwise, String threadName,
      Duration every) {
    Sweeper sweeper = new Sweeper(calls, table, batch, otherwise, threadName);
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
        log.debug("Deleted {} expired entries from {}", deleted, table);
      }
      warned = false;
    } catch (BackendUnavailableException e) {
      log.debug("The removal of expired entries failed; trying again in the next round", e);
    } catch (RuntimeException e) { // a refusal or a table not set up: a task that throws is never run again
      if (!warned) {
        log.warn("Expired entries of crashed clients cannot be removed from {}, so they stay {}: {}", table,
            otherwise, e.getMessage());
        warned = true;
      }
    }
  }

  /** Deletes one batch; how many entries it deleted. */
  private int deleteBatch() {
    return calls.call("Removing expired entries from " + table, connection -> batch.delete(connection, BATCH));
  }

  /** Stops sweeping; a round under way ends with its call once the connections are closed. */
  @Override
  public void close() {
    thread.shutdownNow();
  }

  /** Waits up to {@code timeout} for a round under way to end. */
  public void awaitTermination(Duration timeout) throws InterruptedException {
    thread.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }
}
