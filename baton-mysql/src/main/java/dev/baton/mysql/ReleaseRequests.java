package dev.baton.mysql;

import dev.baton.BackendUnavailableException;
import dev.baton.jdbc.Entry;
import dev.baton.jdbc.JdbcCalls;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.ReleaseRequestListener;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Requests to release on MySQL, which has no {@code NOTIFY}: a request is a row per holder asked in
 * {@code TABLE_requests} ({@code request.sql}), addressed to the holder's client. A client that listens polls for the
 * rows addressed to it, one indexed read per client however many keys it holds ({@code requests-read.sql}), reads
 * and deletes them and hands them to the engine's listener. The poll adapts as the wait's does: it looks again
 * {@link #FIRST_POLL} after it found a request, then twice as long each time it found none, up to
 * {@code maxPollInterval}; an idle listening client costs one read per {@code maxPollInterval}. A row no one reads
 * (its client does not listen, or is gone) expires after {@link #TTL} and is swept ({@code requests-sweep.sql}).
 *
 * <p>The table is made the first time a client asks or listens ({@code create-requests.sql}), not at connect: a user
 * who may not create tables uses the lock table without it, and is refused only on asking or listening.
 *
 * <p>Threads: one daemon thread of its own, from the first {@link #listen} until {@link #close}.
 */
final class ReleaseRequests implements AutoCloseable {
  /** How long a request waits for its client to read it before it is swept. */
  static final Duration TTL = Duration.ofSeconds(60);
  /** How soon the poll looks again after it found a request. */
  static final Duration FIRST_POLL = Duration.ofMillis(10);
  /** Requests read per poll at the most; more are read at the next, {@link #FIRST_POLL} later. */
  private static final int BATCH = 100;
  private static final Logger log = LoggerFactory.getLogger(ReleaseRequests.class);

  /** A request read from the table. */
  private record Request(long id, String ownerId, String key) {}

  private final JdbcCalls calls;
  private final Sql sql;
  private final long maxPollMillis;
  private volatile ReleaseRequestListener listener = (key, ownerId) -> { };
  /** Whether the table is known to exist: looked for (and made) once per client. */
  private volatile boolean tableExists;
  /** Guarded by this: the poll's thread, once listening. */
  private ScheduledExecutorService poller;
  /** The poll's own: the client listened for, the next interval, whether a failing poll was told at warn. */
  private String clientId;
  private long pollMillis;
  private boolean warned;

  ReleaseRequests(JdbcCalls calls, Sql sql, Duration maxPollInterval) {
    this.calls = calls;
    this.sql = sql;
    this.maxPollMillis = Math.max(FIRST_POLL.toMillis(), maxPollInterval.toMillis());
  }

  void setListener(ReleaseRequestListener listener) {
    this.listener = listener;
  }

  /**
   * Asks every holder of {@code key} in {@code connection}'s call: a row for each holder among {@code entries}, the
   * key's live entries in queue order; how many were asked.
   */
  int ask(Connection connection, String key, List<Entry> entries) throws SQLException {
    List<Entry> holders = Entry.holders(entries);
    if (holders.isEmpty()) {
      return 0;
    }
    try (PreparedStatement insert = calls.prepare(connection, sql.request)) {
      for (Entry holder : holders) {
        insert.setString(1, AcquireRequest.clientIdOf(holder.ownerId()));
        insert.setString(2, holder.ownerId());
        insert.setBytes(3, Keys.bytes(key));
        insert.setLong(4, TTL.toMillis());
        insert.addBatch();
      }
      insert.executeBatch();
    }
    return holders.size();
  }

  /**
   * Makes the table of requests if it is missing, once per client.
   *
   * @throws dev.baton.PermissionDeniedException if it is missing and the user may not create it
   */
  void ensureTable() {
    if (tableExists) {
      return;
    }
    boolean found = calls.call("Looking for the table of requests to release " + sql.table + "_requests", c -> {
      try (PreparedStatement check = calls.prepare(c, sql.requestsExists)) {
        check.setString(1, sql.database());
        check.setString(2, sql.tableName() + "_requests");
        try (ResultSet count = check.executeQuery()) {
          return count.next() && count.getInt(1) == 1;
        }
      }
    });
    if (!found) {
      calls.call("Creating the table of requests to release " + sql.table + "_requests", c -> {
        try (PreparedStatement create = calls.prepare(c, sql.createRequests)) {
          create.execute();
        }
        return null;
      });
    }
    tableExists = true;
  }

  /**
   * Starts polling for the requests addressed to {@code clientId}, once for the client (later calls return at once);
   * the requests addressed to it before are dropped, not replayed.
   *
   * @throws dev.baton.LockException if the table cannot be made or read; a later call tries again
   */
  synchronized void listen(String clientId) {
    if (poller != null) {
      return;
    }
    ensureTable();
    calls.call("Listening for requests to release in " + sql.table + "_requests", connection -> {
      try (PreparedStatement clear = calls.prepare(connection, sql.requestsClear)) {
        clear.setString(1, clientId);
        clear.executeUpdate();
      }
      return null;
    });
    this.clientId = clientId;
    this.pollMillis = FIRST_POLL.toMillis();
    poller = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "baton-mysql-release-requests");
      thread.setDaemon(true);
      return thread;
    });
    poller.schedule(this::poll, pollMillis, TimeUnit.MILLISECONDS);
  }

  /** Deletes up to {@code limit} expired requests in {@code connection}'s call, if the table is known; how many. */
  int sweep(Connection connection, int limit) throws SQLException {
    if (!tableExists) {
      return 0;
    }
    try (PreparedStatement sweep = calls.prepare(connection, sql.requestsSweep)) {
      sweep.setInt(1, limit);
      return sweep.executeUpdate();
    }
  }

  private void poll() {
    List<Request> found = List.of();
    try {
      found = calls.call("Reading the requests to release in " + sql.table + "_requests", this::take);
      warned = false;
    } catch (BackendUnavailableException e) {
      log.debug("Reading the requests to release failed; trying again", e);
    } catch (RuntimeException e) { // a refusal or a table dropped: a task that throws is never run again
      if (!warned) {
        log.warn("Requests to release cannot be read from {}_requests: {}", sql.table, e.getMessage());
        warned = true;
      }
    }
    ReleaseRequestListener current = listener;
    found.forEach(request -> current.requested(request.key(), request.ownerId()));
    pollMillis = found.isEmpty() ? Math.min(maxPollMillis, pollMillis * 2) : FIRST_POLL.toMillis();
    try {
      poller.schedule(this::poll, pollMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // Closed: the poll ends.
    }
  }

  /** Reads the requests addressed to this client and deletes them. */
  private List<Request> take(Connection connection) throws SQLException {
    List<Request> found = new ArrayList<>();
    try (PreparedStatement read = calls.prepare(connection, sql.requestsRead)) {
      read.setString(1, clientId);
      read.setInt(2, BATCH);
      try (ResultSet rows = read.executeQuery()) {
        while (rows.next()) {
          found.add(new Request(rows.getLong(1), rows.getString(2), Keys.text(rows.getBytes(3))));
        }
      }
    }
    if (!found.isEmpty()) {
      try (PreparedStatement delete = calls.prepare(connection, sql.requestsDelete)) {
        for (Request request : found) {
          delete.setLong(1, request.id());
          delete.addBatch();
        }
        delete.executeBatch();
      }
    }
    return found;
  }

  /** Stops polling; a poll under way ends with its call. */
  @Override
  public synchronized void close() {
    if (poller != null) {
      poller.shutdownNow();
    }
  }

  /** Waits up to {@code timeout} for a poll under way to end. */
  void awaitTermination(Duration timeout) throws InterruptedException {
    ScheduledExecutorService current;
    synchronized (this) {
      current = poller;
    }
    if (current != null) {
      current.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
  }
}
