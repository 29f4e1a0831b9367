package dev.baton.postgres;

import dev.baton.BackendSetupException;
import dev.baton.BackendUnavailableException;
import dev.baton.PermissionDeniedException;
import dev.baton.jdbc.JdbcCalls;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The renewals of one client, sent in batches ({@code renew-many.sql}): the watchdog renews every lease that is due in
 * one tick, and one statement renews up to {@link #BATCH} of them, so a client holding many leases sends a statement
 * per tick, not one per lease. A renewal asked for while a batch is under way goes out with the next one, right after
 * it: an idle client's renewal costs one statement's wait, as before.
 *
 * <p>Threads: one daemon thread of its own, which sends the batches one after the other.
 */
final class Renewals implements AutoCloseable {
  /** Renewals per statement at the most: a longer queue goes out in several statements, one after the other. */
  static final int BATCH = 256;
  private static final Logger log = LoggerFactory.getLogger(Renewals.class);

  /** One entry to renew, and what its renewal answers. */
  private record Request(String key, long entryId, long millis, CompletableFuture<Boolean> done) {}

  /** An entry's address in the lock table. */
  private record Row(String key, long entryId) {}

  private final JdbcCalls calls;
  private final Sql sql;
  private final Queue<Request> pending = new ConcurrentLinkedQueue<>();
  /** Whether a drain is scheduled or running: renewals asked for meanwhile are sent by it. */
  private final AtomicBoolean draining = new AtomicBoolean();
  private final ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
    Thread renewal = new Thread(task, "baton-postgres-renewal");
    renewal.setDaemon(true);
    return renewal;
  });
  private volatile boolean closed;

  Renewals(JdbcCalls calls, Sql sql) {
    this.calls = calls;
    this.sql = sql;
  }

  /**
   * Sets the expiry of {@code key}'s entry {@code entryId} to {@code expiry} from now by the database's clock, if it
   * is still there and has not expired: true if it was renewed, false if not; exceptionally as the statement failed
   * ({@link PostgresErrors}), or with {@link BackendUnavailableException} if the client closed first.
   */
  CompletionStage<Boolean> renew(String key, long entryId, Duration expiry) {
    CompletableFuture<Boolean> done = new CompletableFuture<>();
    pending.add(new Request(key, entryId, Math.max(1, expiry.toMillis()), done));
    if (closed) {
      failPending(); // close() may have failed the pending ones before this one was added
    } else if (draining.compareAndSet(false, true)) {
      try {
        thread.execute(this::drain);
      } catch (RejectedExecutionException e) {
        failPending(); // closed meanwhile
      }
    }
    return done;
  }

  /** Sends the pending renewals in batches until none is left. */
  private void drain() {
    while (!closed) {
      List<Request> batch = nextBatch();
      if (!batch.isEmpty()) {
        send(batch);
        continue;
      }
      draining.set(false);
      // A renewal added after the batch came back empty, which saw the drain still running, is sent by this drain.
      if (pending.isEmpty() || !draining.compareAndSet(false, true)) {
        return;
      }
    }
    failPending();
  }

  private List<Request> nextBatch() {
    List<Request> batch = new ArrayList<>();
    for (Request next; batch.size() < BATCH && (next = pending.poll()) != null; ) {
      batch.add(next);
    }
    return batch;
  }

  private void send(List<Request> batch) {
    Set<Row> renewed;
    try {
      renewed = calls.call(describe(batch), connection -> renewAll(connection, batch));
    } catch (PermissionDeniedException | BackendSetupException e) {
      log.warn("{}; the leases are lost unless a renewal succeeds within their ttl", e.getMessage());
      fail(batch, e);
      return;
    } catch (RuntimeException e) {
      fail(batch, e);
      return;
    }
    for (Request request : batch) {
      request.done().complete(renewed.contains(new Row(request.key(), request.entryId())));
    }
  }

  private Set<Row> renewAll(Connection connection, List<Request> batch) throws SQLException {
    String[] keys = new String[batch.size()];
    Long[] entryIds = new Long[batch.size()];
    Long[] millis = new Long[batch.size()];
    for (int i = 0; i < batch.size(); i++) {
      keys[i] = batch.get(i).key();
      entryIds[i] = batch.get(i).entryId();
      millis[i] = batch.get(i).millis();
    }
    Array keyArray = connection.createArrayOf("text", keys);
    Array entryIdArray = connection.createArrayOf("bigint", entryIds);
    Array millisArray = connection.createArrayOf("bigint", millis);
    try (PreparedStatement update = calls.prepare(connection, sql.renewMany)) {
      update.setArray(1, keyArray);
      update.setArray(2, entryIdArray);
      update.setArray(3, millisArray);
      Set<Row> renewed = new HashSet<>();
      try (ResultSet rows = update.executeQuery()) {
        while (rows.next()) {
          renewed.add(new Row(rows.getString(1), rows.getLong(2)));
        }
      }
      return renewed;
    } finally {
      keyArray.free();
      entryIdArray.free();
      millisArray.free();
    }
  }

  /** What errors call the batch: the key itself if it is one renewal. */
  private static String describe(List<Request> batch) {
    return batch.size() == 1
        ? "Renewing '" + batch.get(0).key() + "'"
        : "Renewing " + batch.size() + " entries ('" + batch.get(0).key() + "' first)";
  }

  private static void fail(List<Request> batch, RuntimeException e) {
    for (Request request : batch) {
      request.done().completeExceptionally(e);
    }
  }

  private void failPending() {
    BackendUnavailableException closing = new BackendUnavailableException(
        "The PostgreSQL client closed before the renewal was sent");
    for (Request request = pending.poll(); request != null; request = pending.poll()) {
      request.done().completeExceptionally(closing);
    }
  }

  /**
   * Stops sending renewals: the pending ones fail with {@link BackendUnavailableException}; a batch under way ends with
   * its call once the connections are closed.
   */
  @Override
  public void close() {
    closed = true;
    thread.shutdownNow();
    failPending();
  }

  /** Waits up to {@code timeout} for a batch under way to end. */
  void awaitTermination(Duration timeout) throws InterruptedException {
    thread.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }
}
