package dev.baton.postgres;

import dev.baton.LockException;
import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.jdbc.Connections;
import dev.baton.jdbc.Entry;
import dev.baton.jdbc.JdbcCalls;
import dev.baton.jdbc.Sweeper;
import dev.baton.jdbc.TransactionSetup;
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

/**
 * Baton's lock protocol on PostgreSQL: one row per queue entry in the lock table, numbered by a sequence, expiring by
 * the database's clock ({@link PostgresAttempt} for the acquire). Renewals, releases and reads are single statements
 * on a connection borrowed for the call; renewals asked for together go out in one statement. Its attempts see it as
 * their {@link AttemptStore}.
 *
 * <p>A request to release is a {@code NOTIFY} to each holder's client on that client's own channel
 * ({@code baton_release_CLIENT}), with the payload {@code OWNER_ID KEY}; a client listens on it, on its notification
 * connection, from the first lease that wants to hear requests until it closes.
 */
final class PostgresBackend implements LockBackend, AttemptStore {
  private final Connections connections;
  private final Sql sql;
  private final JdbcCalls calls;
  private final Notifications notifications;
  private final Sweeper sweeper;
  private final LockGrants grants;
  private final Duration fallbackWait;
  private final String server;
  private final Renewals renewals;
  private volatile ReleaseRequestListener releaseRequests = (key, ownerId) -> { };
  /** Guarded by this: whether the client's release channel is listened on. */
  private boolean listening;

  private PostgresBackend(Connections connections, Sql sql, JdbcCalls calls, Notifications notifications,
      LockGrants grants, Sweeper sweeper, Duration fallbackWait, String server) {
    this.connections = connections;
    this.sql = sql;
    this.calls = calls;
    this.notifications = notifications;
    this.grants = grants;
    this.sweeper = sweeper;
    this.fallbackWait = fallbackWait;
    this.server = server;
    this.renewals = new Renewals(calls, sql);
  }

  /**
   * Creates the lock table if it is missing (and checks it if not), starts listening for releases and sweeping expired
   * entries every {@code sweepEvery}; on failure closes the connections and throws.
   */
  static PostgresBackend connect(Connections connections, String table, Duration timeout, Duration fallbackWait,
      Duration sweepEvery, String server) {
    Sql sql = new Sql(table);
    JdbcCalls calls = new JdbcCalls(connections, timeout, "baton-postgres-deadlines", PostgresErrors::translate,
        TransactionSetup.NONE, server, sql.table);
    try {
      LockTable.ensureExists(calls, sql);
      LockGrants grants = LockGrants.read(calls, sql, server);
      Notifications notifications;
      try {
        notifications = Notifications.listen(connections, sql.channel(), timeout);
      } catch (SQLException e) {
        throw PostgresErrors.translate("Listening for releases on channel " + sql.channel(), server, sql.table, e);
      }
      return new PostgresBackend(connections, sql, calls, notifications, grants,
          sweeper(calls, sql, sweepEvery), fallbackWait, server);
    } catch (LockException | IllegalStateException e) {
      calls.close();
      connections.close();
      throw e;
    }
  }

  /**
   * Starts deleting expired entries every {@code every} ({@code sweep.sql}, which also notifies the waiters of their
   * keys).
   */
  private static Sweeper sweeper(JdbcCalls calls, Sql sql, Duration every) {
    return Sweeper.start(calls, sql.table, (connection, limit) -> {
      try (PreparedStatement sweep = calls.prepare(connection, sql.sweep)) {
        sweep.setInt(1, limit);
        sweep.setString(2, sql.channel());
        try (ResultSet row = sweep.executeQuery()) {
          row.next();
          return row.getInt(1);
        }
      }
    }, "until their key is acquired again", "baton-postgres-sweep", every);
  }

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public void checkKey(String key) {
    // PostgreSQL text holds any key the engine accepts (it refuses control characters, NUL among them).
  }

  @Override
  public LockStatus status(String key) {
    return calls.call("Reading the status of '" + key + "'", connection -> status(connection, key));
  }

  private LockStatus status(Connection connection, String key) throws SQLException {
    List<Entry> entries;
    try (PreparedStatement read = calls.prepare(connection, sql.entries)) {
      read.setString(1, key);
      try (ResultSet rows = read.executeQuery()) {
        entries = Entry.readAll(rows);
      }
    }
    return Entry.status(key, entries);
  }

  @Override
  public List<LockStatus> list(String keyPrefix, int limit) {
    return calls.call("Listing the locks under '" + keyPrefix + "'", connection -> {
      List<String> keys = new ArrayList<>();
      try (PreparedStatement read = calls.prepare(connection, sql.keys)) {
        read.setString(1, keyPrefix);
        read.setInt(2, limit);
        try (ResultSet rows = read.executeQuery()) {
          while (rows.next()) {
            keys.add(rows.getString(1));
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

  /** Reads the key's live entries, and notifies the client of each that holds by the queue's rule. */
  @Override
  public int requestRelease(String key) {
    return calls.call("Asking the holders of '" + key + "' to release it", connection -> {
      List<Entry> entries;
      try (PreparedStatement read = calls.prepare(connection, sql.entries)) {
        read.setString(1, key);
        try (ResultSet rows = read.executeQuery()) {
          entries = Entry.readAll(rows);
        }
      }
      List<Entry> holders = Entry.holders(entries);
      for (Entry entry : holders) {
        try (PreparedStatement notify = calls.prepare(connection, "SELECT pg_notify(?, ?)")) {
          notify.setString(1, releaseChannel(AcquireRequest.clientIdOf(entry.ownerId())));
          notify.setString(2, entry.ownerId() + " " + key);
          notify.execute();
        }
      }
      return holders.size();
    });
  }

  @Override
  public void setReleaseRequestListener(ReleaseRequestListener listener) {
    releaseRequests = listener;
  }

  @Override
  public synchronized void listenForReleaseRequests(Grant grant) {
    if (listening) {
      return;
    }
    String channel = releaseChannel(grant.request().clientId());
    try {
      notifications.receive(channel, this::releaseRequested);
    } catch (SQLException e) {
      throw PostgresErrors.translate("Listening for requests to release on channel " + channel, server, sql.table, e);
    }
    listening = true;
  }

  /** A payload {@code OWNER_ID KEY} on the client's release channel. */
  private void releaseRequested(String payload) {
    int space = payload.indexOf(' ');
    if (space > 0) {
      releaseRequests.requested(payload.substring(space + 1), payload.substring(0, space));
    }
  }

  /** The channel on which the client with {@code clientId} hears requests to release its entries. */
  static String releaseChannel(String clientId) {
    return "baton_release_" + clientId;
  }

  @Override
  public Attempt newAttempt(AcquireRequest request) {
    return new PostgresAttempt(this, calls, sql, request);
  }

  /**
   * Sets the entry's expiry anew by the database's clock, if it is still there and has not expired, in one statement
   * with the other renewals asked for at the same time ({@link Renewals}). A renewal the server refuses (a privilege
   * revoked, the table changed) is logged at warn with its cause, as the engine keeps trying until the lease is lost.
   */
  @Override
  public CompletionStage<Boolean> renew(Grant grant, Duration expiry) {
    return renewals.renew(grant.request().key(), grant.fencingToken(), expiry);
  }

  /** Deletes the entry and wakes the key's waiters if one marked it; true if it had not expired yet. */
  @Override
  public boolean release(Grant grant) {
    String key = grant.request().key();
    return calls.call("Releasing '" + key + "'", connection -> {
      try (PreparedStatement delete = calls.prepare(connection, sql.release)) {
        delete.setString(1, key);
        delete.setLong(2, grant.fencingToken());
        delete.setString(3, sql.channel());
        try (ResultSet row = delete.executeQuery()) {
          return row.next() && row.getBoolean(1);
        }
      }
    });
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
        update.setString(2, key);
        update.setLong(3, grant.fencingToken());
        return update.executeUpdate() == 1;
      }
    });
  }

  /**
   * Keeps the entry, expiring {@code expiry} from now, if the key has no other live entry and no one queued behind it
   * while it was held (a waiter marks the entries ahead of it as contended); else releases it.
   */
  @Override
  public ChainEnd keepUnlessOthersWait(Grant grant, Duration expiry) {
    String key = grant.request().key();
    boolean kept = calls.call("Keeping '" + key + "'", connection -> {
      try (PreparedStatement keep = calls.prepare(connection, sql.keep)) {
        keep.setLong(1, Math.max(1, expiry.toMillis()));
        keep.setString(2, key);
        keep.setLong(3, grant.fencingToken());
        keep.setString(4, key);
        keep.setLong(5, grant.fencingToken());
        return keep.executeUpdate() == 1;
      }
    });
    if (kept) {
      return ChainEnd.KEPT;
    }
    return release(grant) ? ChainEnd.RELEASED : ChainEnd.GONE;
  }

  @Override
  public void deleteEntry(String key, String ownerId) {
    calls.call("Leaving the queue of '" + key + "'", connection -> {
      try (PreparedStatement delete = calls.prepare(connection, sql.abandon)) {
        delete.setString(1, key);
        delete.setString(2, ownerId);
        delete.setString(3, sql.channel());
        delete.execute();
      }
      return null;
    });
  }

  @Override
  public void register(String key, WakeUp wakeUp) {
    notifications.register(key, wakeUp);
  }

  @Override
  public void unregister(String key, WakeUp wakeUp) {
    notifications.unregister(key, wakeUp);
  }

  @Override
  public void checkMayAcquire(String what) {
    grants.checkMayAcquire(what);
  }

  @Override
  public Duration fallbackWait() {
    return fallbackWait;
  }

  @Override
  public void close() {
    notifications.close();
    renewals.close();
    sweeper.close();
    calls.close();
    connections.close();
    try {
      // A renewal or sweep under way ends with its call (the connections are closed); waiting for it leaves no thread
      // behind.
      renewals.awaitTermination(Duration.ofSeconds(2));
      sweeper.awaitTermination(Duration.ofSeconds(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "PostgreSQL at " + server;
  }
}
