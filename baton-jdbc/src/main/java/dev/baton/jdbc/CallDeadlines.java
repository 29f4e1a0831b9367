package dev.baton.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds every call by the command timeout: one daemon thread looks at the calls under way every twentieth of the
 * timeout and cancels the running statement of each call that has outlasted it, so a call ends within 1.05 times the
 * timeout (the server then logs that it cancelled the statement). The driver's own query timeout would do the same for
 * each statement, but at the cost of waking its timer thread twice a statement: on a busy machine those wake-ups
 * made an uncontended lock and unlock half as fast on PostgreSQL. On MySQL it bounds the calls on an application's
 * data source too, whose connections Baton cannot give a socket timeout.
 *
 * <p>A cancel reaches only the statement it was meant for: the driver cancels a statement only while it runs.
 *
 * <p>Threads: calls start, run statements and end on any thread; the watcher thread cancels.
 */
public final class CallDeadlines implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CallDeadlines.class);
  private static final long MIN_PERIOD_MILLIS = 10;
  private static final long CLOSE_WAIT_MILLIS = 2_000;

  private final long timeoutNanos;
  private final long periodMillis;
  private final Map<Connection, Call> running = new ConcurrentHashMap<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private final Thread watcher;

  /** One call under way: when it is due, and the statement it runs now. */
  private static final class Call {
    final long dueNanos;
    volatile Statement statement;

    Call(long dueNanos) {
      this.dueNanos = dueNanos;
    }
  }

  /** Bounds calls by {@code timeout}, watched by a daemon thread named {@code threadName}. */
  public CallDeadlines(Duration timeout, String threadName) {
    this.timeoutNanos = timeout.toNanos();
    this.periodMillis = Math.max(MIN_PERIOD_MILLIS, timeout.toMillis() / 20);
    this.watcher = new Thread(this::watch, threadName);
    watcher.setDaemon(true);
    watcher.start();
  }

  /** A call on {@code connection} starts now. */
  public void start(Connection connection) {
    running.put(connection, new Call(System.nanoTime() + timeoutNanos));
  }

  /** The call on {@code connection} runs {@code statement} next. */
  public void runs(Connection connection, Statement statement) {
    Call call = running.get(connection);
    if (call != null) {
      call.statement = statement;
    }
  }

  /** The call on {@code connection} is over, before the connection goes back to the pool. */
  public void end(Connection connection) {
    running.remove(connection);
  }

  private void watch() {
    try {
      while (!closed.await(periodMillis, TimeUnit.MILLISECONDS)) {
        long now = System.nanoTime();
        running.values().forEach(call -> {
          if (now - call.dueNanos >= 0) {
            cancel(call.statement);
          }
        });
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void cancel(Statement statement) {
    if (statement == null) {
      return;
    }
    try {
      statement.cancel();
    } catch (SQLException e) {
      // The call fails on its own (its connection broke) or ends anyway; the next look tries again if it does not.
      log.debug("Could not cancel a statement that outlasted the command timeout", e);
    }
  }

  /** Stops the watcher and waits for its thread to end, so a closed client leaves no thread behind. */
  @Override
  public void close() {
    closed.countDown();
    try {
      watcher.join(CLOSE_WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
