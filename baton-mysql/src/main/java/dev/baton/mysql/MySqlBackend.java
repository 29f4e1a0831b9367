package dev.baton.mysql;

import dev.baton.LockException;
import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.jdbc.ConnectionSetup;
import dev.baton.jdbc.Connections;
import dev.baton.jdbc.Entry;
import dev.baton.jdbc.JdbcCalls;
import dev.baton.jdbc.Sweeper;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.ChainEnd;
import dev.baton.spi.Grant;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.LockBackend;
import dev.baton.spi.ReleaseRequestListener;
import dev.baton.spi.WakeUp;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Baton's lock protocol on MySQL and MariaDB: one row per queue entry in the lock table, numbered by a counter row,
 * expiring by the database's clock ({@link MySqlAttempt} for the acquire). Renewals, releases and reads are single
 * statements on a connection borrowed for the call, each call bounded by the command timeout. Requests to release are
 * rows a holder's listening client polls for ({@link ReleaseRequests}). Its attempts see it as their {@link AttemptStore}.
 */
final class MySqlBackend implements LockBackend, AttemptStore {
  /**
   * The keep at the end of a chain of local hand-overs requires of the entry, and of its own answer's delay, a margin
   * of the ttl divided by this: the engine keeps an entry that has a third of its ttl left at least.
   */
  private static final int KEEP_MARGIN_DIVISOR = 4;
  private final Connections connections;
  private final Sql sql;
  private final JdbcCalls calls;
  private final Sweeper sweeper;
  private final Renewals renewals;
  private final ReleaseRequests requests;
  private final LocalWakeUps wakeUps = new LocalWakeUps();
  private final KeyFloors floors = new KeyFloors();
  private final Duration maxPollInterval;
  private final String server;
  /** The statement of an acquire's first try in one round trip ({@link ClaimStatement}), or null if none runs here. */
  private final ClaimStatement claimStatement;

  private MySqlBackend(Connections connections, Sql sql, JdbcCalls calls, ReleaseRequests requests, Sweeper sweeper,
      Duration maxPollInterval, String server, ClaimStatement claimStatement) {
    this.connections = connections;
    this.sql = sql;
    this.calls = calls;
    this.requests = requests;
    this.sweeper = sweeper;
    this.renewals = new Renewals(calls, sql);
    this.maxPollInterval = maxPollInterval;
    this.server = server;
    this.claimStatement = claimStatement;
  }

  /**
   * Creates the lock table if it is missing (and checks it if not) and starts sweeping expired entries every
   * {@code sweepEvery}; on failure closes the connections and throws. {@code multiStatements}: whether the
   * connections run several statements in one call (the client's own pool sets {@code allowMultiQueries}); the
   * statement that sends an acquire's first try in one round trip follows from it and the server
   * ({@link ClaimStatement}).
   */
  static MySqlBackend connect(Connections connections, Sql sql, Duration timeout, Duration maxPollInterval,
      Duration sweepEvery, String server, boolean multiStatements) {
    JdbcCalls calls = new JdbcCalls(connections, timeout, "baton-mysql-deadlines", MySqlErrors::translate,
        MySqlBackend::readCommitted, server, sql.table);
    try {
      LockTable.ensureExists(calls, sql);
      ClaimStatement claimStatement = ClaimStatement.choose(calls, sql, multiStatements);
      ReleaseRequests requests = new ReleaseRequests(calls, sql, maxPollInterval);
      return new MySqlBackend(connections, sql, calls, requests, sweeper(calls, sql, requests, sweepEvery),
          maxPollInterval, server, claimStatement);
    } catch (LockException | IllegalStateException e) {
      calls.close();
      connections.close();
      throw e;
    }
  }

  /**
   * Sets a transaction's isolation to READ COMMITTED: each statement reads what was committed before it, and locks
   * no gaps. The JDBC setting is the session's, so a connection that came at another level (an application's, at
   * MySQL's REPEATABLE READ) is put back to it after the transaction; the client's own pool opens its connections at
   * READ COMMITTED, and sets nothing.
   */
  private static ConnectionSetup readCommitted(Connection connection) throws SQLException {
    int came = connection.getTransactionIsolation();
    if (came == Connection.TRANSACTION_READ_COMMITTED) {
      return ConnectionSetup.NONE;
    }
    connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    return putBack -> putBack.setTransactionIsolation(came);
  }

  /**
   * Starts deleting expired entries every {@code every}: each batch read without locks ({@code sweep-read.sql}), then
   * deleted row by row by primary key, each still expired ({@code sweep.sql}), as a release deletes, so that a sweep
   * never deadlocks with a release; and the expired requests to release of a client that asked or listened
   * ({@link ReleaseRequests#sweep}).
   */
  private static Sweeper sweeper(JdbcCalls calls, Sql sql, ReleaseRequests requests, Duration every) {
    return Sweeper.start(calls, sql.table, (connection, limit) -> expired(calls, sql, connection, limit)
        + requests.sweep(connection, limit), "until they are released", "baton-mysql-sweep", every);
  }

  /** Deletes up to {@code limit} expired entries, a statement each; how many it deleted. */
  private static int expired(JdbcCalls calls, Sql sql, Connection connection, int limit) throws SQLException {
    List<ExpiredEntry> found = new ArrayList<>();
    try (PreparedStatement read = calls.prepare(connection, sql.sweepRead)) {
      read.setInt(1, limit);
      try (ResultSet rows = read.executeQuery()) {
        while (rows.next()) {
          found.add(new ExpiredEntry(rows.getBytes(1), rows.getLong(2)));
        }
      }
    }
    if (found.isEmpty()) {
      return 0;
    }
    int deleted = 0;
    try (PreparedStatement delete = calls.prepare(connection, sql.sweep)) {
      for (ExpiredEntry entry : found) {
        delete.setBytes(1, entry.key());
        delete.setLong(2, entry.id());
        deleted += delete.executeUpdate();
      }
    }
    return deleted;
  }

  /** An entry a sweep found expired: its key's bytes and its token. */
  private record ExpiredEntry(byte[] key, long id) {}

  @Override
  public String name() {
    return "mysql";
  }

  @Override
  public void checkKey(String key) {
    // The key's UTF-8 bytes fit the column (at most 1024 bytes) whatever key the engine accepts.
  }

  @Override
  public LockStatus status(String key) {
    return calls.call("Reading the status of '" + key + "'", connection -> status(connection, key));
  }

  private LockStatus status(Connection connection, String key) throws SQLException {
    return Entry.status(key, entries(connection, key));
  }

  /** The key's live entries in queue order ({@code entries.sql}). */
  private List<Entry> entries(Connection connection, String key) throws SQLException {
    try (PreparedStatement read = calls.prepare(connection, sql.entries)) {
      read.setBytes(1, Keys.bytes(key));
      read.setLong(2, 0); // the whole key: a status read learns no floor (KeyFloors)
      try (ResultSet rows = read.executeQuery()) {
        return Entry.readAll(rows);
      }
    }
  }

  /**
   * Reads the key's live entries and writes a request for each that holds by the queue's rule, which its client reads
   * if it listens ({@link ReleaseRequests}).
   */
  @Override
  public int requestRelease(String key) {
    requests.ensureTable();
    return calls.call("Asking the holders of '" + key + "' to release it",
        connection -> requests.ask(connection, key, entries(connection, key)));
  }

  @Override
  public void setReleaseRequestListener(ReleaseRequestListener listener) {
    requests.setListener(listener);
  }

  @Override
  public void listenForReleaseRequests(Grant grant) {
    requests.listen(grant.request().clientId());
  }

  @Override
  public List<LockStatus> list(String keyPrefix, int limit) {
    return calls.call("Listing the locks under '" + keyPrefix + "'", connection -> {
      List<String> keys = new ArrayList<>();
      byte[] prefix = Keys.bytes(keyPrefix);
      try (PreparedStatement read = calls.prepare(connection, sql.keys)) {
        read.setBytes(1, prefix);
        read.setBytes(2, prefix);
        read.setBytes(3, prefix);
        read.setInt(4, limit);
        try (ResultSet rows = read.executeQuery()) {
          while (rows.next()) {
            keys.add(Keys.text(rows.getBytes(1)));
          }
        }
      }
      List<LockStatus> held = new ArrayList<>(keys.size());
      for (String key : keys) {
        LockStatus status = status(connection, key);
        if (status.isHeld()) {
          held.add(status);
        }
      }
      return held;
    });
  }

  @Override
  public Attempt newAttempt(AcquireRequest request) {
    return new MySqlAttempt(this, calls, sql, floors, claimStatement, request);
  }

  /** Sets the entry's expiry anew by the database's clock, if it is still there and has not expired. */
  @Override
  public CompletionStage<Boolean> renew(Grant grant, Duration ttl) {
    return renewals.renew(grant.request().key(), grant.fencingToken(), ttl);
  }

  /** Deletes the entry and wakes this client's waiters of the key; true if it had not expired yet. */
  @Override
  public boolean release(Grant grant) {
    String key = grant.request().key();
    boolean ours = calls.call("Releasing '" + key + "'", connection -> {
      if (delete(connection, sql.release, key, grant.fencingToken())) {
        return true;
      }
      delete(connection, sql.releaseExpired, key, grant.fencingToken());
      return false;
    });
    wakeUps.signal(key);
    return ours;
  }

  @Override
  public boolean rewritesHolders() {
    return true;
  }

  /** One UPDATE of the entry's row by its id ({@code rewrite.sql}), if it is still live. */
  @Override
  public boolean rewriteHolder(Grant grant, LockHolder holder) {
    String key = grant.request().key();
    return calls.call("Rewriting the holder of '" + key + "'", connection -> {
      try (PreparedStatement update = calls.prepare(connection, sql.rewrite)) {
        update.setString(1, HolderRecord.write(grant.request().ownerId(), holder));
        update.setBytes(2, Keys.bytes(key));
        update.setLong(3, grant.fencingToken());
        return update.executeUpdate() == 1;
      }
    });
  }

  private boolean delete(Connection connection, String statement, String key, long entryId)
      throws SQLException {
    try (PreparedStatement delete = calls.prepare(connection, statement)) {
      delete.setBytes(1, Keys.bytes(key));
      delete.setLong(2, entryId);
      return delete.executeUpdate() == 1;
    }
  }

  /**
   * Keeps the entry, expiring {@code ttl} from now, if no waiter marked it while it was held ({@code contend.sql}) and
   * it has a quarter of {@code ttl} left at least ({@link #KEEP_MARGIN_DIVISOR}); else releases it. Every client that
   * waits for the entry marks it, in the transaction that adds its own entry or in a later look, before it waits, so an
   * unmarked entry has no one waiting for it but this client's threads; a waiter whose mark comes after the keep waits
   * at most to the end of the next chain. One statement ({@code keep.sql}), one round trip. It may wait, for a row lock
   * or for the cluster, after it compared the entry's expiry with its start: the keep is counted on only if its answer
   * came within the margin the entry had left beyond that start, so that it wrote before the entry expired; a later
   * one may have made the entry live again after another client, counting it gone, took the key, and the entry is
   * deleted, as a release does. The holder that let go held the live entry until the statement began: a release, either
   * way.
   */
  @Override
  public ChainEnd keepUnlessOthersWait(Grant grant, Duration ttl) {
    String key = grant.request().key();
    long marginNanos = ttl.toNanos() / KEEP_MARGIN_DIVISOR;
    long sentAt = System.nanoTime();
    boolean renewed = calls.call("Keeping '" + key + "'", connection -> {
      try (PreparedStatement keep = calls.prepare(connection, sql.keep)) {
        keep.setLong(1, Math.max(1, ttl.toMillis()));
        keep.setBytes(2, Keys.bytes(key));
        keep.setLong(3, grant.fencingToken());
        keep.setLong(4, TimeUnit.NANOSECONDS.toMicros(marginNanos));
        return keep.executeUpdate() == 1;
      }
    });
    if (!renewed) {
      return release(grant) ? ChainEnd.RELEASED : ChainEnd.GONE;
    }
    if (System.nanoTime() - sentAt < marginNanos) {
      return ChainEnd.KEPT;
    }
    calls.call("Releasing '" + key + "'", connection -> delete(connection, sql.releaseExpired, key,
        grant.fencingToken()));
    wakeUps.signal(key);
    return ChainEnd.RELEASED;
  }

  @Override
  public void deleteEntry(String key, String ownerId) {
    calls.call("Leaving the queue of '" + key + "'", connection -> {
      try (PreparedStatement delete = calls.prepare(connection, sql.abandon)) {
        delete.setBytes(1, Keys.bytes(key));
        delete.setString(2, ownerId);
        delete.executeUpdate();
      }
      return null;
    });
    wakeUps.signal(key);
  }

  @Override
  public void register(String key, WakeUp wakeUp) {
    wakeUps.register(key, wakeUp);
  }

  @Override
  public void unregister(String key, WakeUp wakeUp) {
    wakeUps.unregister(key, wakeUp);
  }

  @Override
  public Duration maxPollInterval() {
    return maxPollInterval;
  }

  @Override
  public void close() {
    requests.close();
    renewals.close();
    sweeper.close();
    try {
      requests.awaitTermination(Duration.ofSeconds(2));
      renewals.awaitTermination(Duration.ofSeconds(2));
      sweeper.awaitTermination(Duration.ofSeconds(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    calls.close();
    connections.close();
  }

  @Override
  public String toString() {
    return "MySQL at " + server;
  }
}
