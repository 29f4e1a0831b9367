package dev.baton.postgres;

import dev.baton.BackendSetupException;
import dev.baton.PermissionDeniedException;
import dev.baton.jdbc.Entry;
import dev.baton.jdbc.JdbcCalls;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import dev.baton.spi.WakeUp;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * One acquisition in PostgreSQL. Each try is one short transaction that takes the key's transaction-level advisory
 * lock (so that the entries of one key are numbered in the order their transactions commit), then in one statement
 * deletes the key's expired entries (notifying their waiters) and reads the live ones in queue order, and adds our entry
 * at the end if it is not there yet, or sets its expiry anew; the core's {@link QueueRule} says, from the entries ahead
 * of ours, whether it holds. A waiter is woken by the {@code NOTIFY} of a release ({@link Notifications}), and tries
 * again at the latest when the entry it waits for expires, or before its own would: a waiting entry lives for the ttl
 * from each try, a holding one for the request's expiry.
 *
 * <p>The first try claims a free key in one round trip instead ({@code claim.sql}: the advisory lock, then our entry
 * only if the key has no entry at all, in one implicit transaction); where the key has one, live or expired, it goes on
 * as above, which also deletes the expired ones. Mutual exclusion holds as it does for the transaction: every insert of
 * an entry ({@code claim.sql}, {@code insert.sql}) runs under the key's advisory lock and reads the key after the lock
 * is granted, so it sees every entry committed before; the claim adds one only where it saw none, and an entry holds
 * only where the rule says so of the live entries ahead of it. Releases, renewals and marks take no advisory lock:
 * they delete or change entries and never add one.
 *
 * <p>Every statement of a try reads the table through its primary key ({@code queue-lock.sql} sets the plans): the
 * uncontended claim then costs one read of the key's index and one insert, a unique index on the owner ids being no
 * longer needed ({@code insert.sql}). A table made by an earlier version, which has one, works as it is.
 *
 * <p>A single try (one that will not wait) writes nothing unless it holds.
 */
final class PostgresAttempt implements Attempt {
  private final AttemptStore store;
  private final JdbcCalls calls;
  private final Sql sql;
  private final AcquireRequest request;
  private final String what;
  private final long expiryMillis;
  private final long waitingExpiryMillis;
  private WakeUp registered;
  private boolean written;
  private boolean claimTried;

  /** An acquisition of {@code request}'s key in {@code store}, whose statements run through {@code calls}. */
  PostgresAttempt(AttemptStore store, JdbcCalls calls, Sql sql, AcquireRequest request) {
    this.store = store;
    this.calls = calls;
    this.sql = sql;
    this.request = request;
    this.what = "Acquiring '" + request.key() + "'";
    this.expiryMillis = Math.max(1, request.entryTtl().toMillis());
    this.waitingExpiryMillis = Math.max(1, request.ttl().toMillis());
  }

  @Override
  public Outcome tryAcquire(WakeUp wakeUp) {
    if (request.mayWait() && registered == null) {
      store.register(request.key(), wakeUp); // before the read: no release can slip between
      registered = wakeUp;
    }
    if (!claimTried) {
      store.checkMayAcquire(what);
      claimTried = true;
      long claimed = refusedWritesNothing(() -> calls.call(what, this::claim));
      if (claimed != 0) {
        stopWaiting();
        return Outcome.granted(new PostgresGrant(request, claimed));
      }
    }
    Place place = refusedWritesNothing(() -> calls.transaction(what, this::queue));
    if (place.entryId() != 0 && place.holds()) {
      stopWaiting();
      return Outcome.granted(new PostgresGrant(request, place.entryId()));
    }
    if (place.entryId() == 0 && request.mayWait()) {
      return Outcome.retryNow(); // our entry expired as it was read, unseen and not deleted: the next try does
    }
    if (place.aheadChanged()) {
      return Outcome.retryNow(); // an entry ahead was released as we marked it: no notification may come for it
    }
    Duration bound = store.fallbackWait();
    long millis = Math.min(bound.toMillis(), Math.min(place.awaitedExpiresInMillis(), waitingExpiryMillis / 3));
    return Outcome.waitAtMost(Duration.ofMillis(Math.max(1, millis)));
  }

  /**
   * Runs one try's call, and forgets that it may have written our entry if the server refused it: a refusal or a table
   * not set up for Baton is the server's answer to a statement, whose transaction it rolled back. (Only a call cut off
   * may have written without an answer.) So an acquire refused for a privilege is not followed by a clean-up that is
   * refused in turn, and fails naming the acquire.
   */
  private <T> T refusedWritesNothing(Supplier<T> call) {
    boolean before = written;
    try {
      return call.get();
    } catch (PermissionDeniedException | BackendSetupException e) {
      written = before;
      throw e;
    }
  }

  /** Our entry's id if the key had no entry and ours now holds, else 0 (and nothing was written). */
  private long claim(Connection connection) throws SQLException {
    try (PreparedStatement claim = calls.prepare(connection, sql.claim)) {
      claim.setString(1, request.key());
      bindEntry(claim, 2, expiryMillis);
      claim.setString(8, request.key());
      written = true; // from here the entry may be there, whatever the reply
      try (ResultSet row = secondResult(claim)) {
        if (row.next()) {
          return row.getLong(1);
        }
      }
      written = false;
      return 0;
    }
  }

  /**
   * Runs {@code statement}, two statements sent together (they run in one implicit transaction: what the first takes
   * and sets, the key's advisory lock and the plans' settings, holds for the second), and returns the second one's
   * rows.
   */
  private static ResultSet secondResult(PreparedStatement statement) throws SQLException {
    statement.execute(); // the first statement's row
    if (!statement.getMoreResults()) {
      throw new SQLException("The second of the statements sent together returned no rows.");
    }
    return statement.getResultSet();
  }

  /** The transaction of one try. */
  private Place queue(Connection connection) throws SQLException {
    try (PreparedStatement lock = calls.prepare(connection, sql.queueLock)) {
      lock.setString(1, request.key());
      lock.execute();
    }
    List<Entry> entries;
    try (PreparedStatement read = calls.prepare(connection, sql.queue)) {
      read.setString(1, request.key());
      read.setString(2, sql.channel());
      read.setString(3, request.key());
      try (ResultSet rows = read.executeQuery()) {
        entries = Entry.readAll(rows);
      }
    }
    entries.forEach(entry -> request.rule().checkSamePermits(request.key(), entry.rule()));
    int ours = indexOfOurs(entries);
    List<Entry> ahead = ours < 0 ? entries : entries.subList(0, ours);
    int awaited = request.rule().awaited(Entry.modes(ahead));
    boolean holds = awaited == QueueRule.HOLDS;
    long expires = holds ? Long.MAX_VALUE : ahead.subList(awaited, ahead.size()).stream()
        .mapToLong(Entry::remainingMillis).min().orElse(Long.MAX_VALUE) + 1;
    boolean aheadChanged = false;
    if (!holds) {
      long unmarked = ahead.stream().filter(entry -> !entry.contended()).count();
      aheadChanged = contend(connection, ours < 0 ? Long.MAX_VALUE : entries.get(ours).id()) < unmarked;
    }
    if (ours >= 0) {
      long id = entries.get(ours).id();
      refresh(connection, id, holds ? expiryMillis : waitingExpiryMillis);
      return new Place(id, holds, expires, aheadChanged);
    }
    if (!holds && !request.mayWait()) {
      return new Place(0, false, expires, aheadChanged);
    }
    written = true; // from here the entry may be there, whatever the reply
    return new Place(insert(connection, holds ? expiryMillis : waitingExpiryMillis), holds, expires, aheadChanged);
  }

  private int indexOfOurs(List<Entry> entries) {
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).ownerId().equals(request.ownerId())) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Marks the entries ahead of ours as waited for, so that their holders release them at the end of a chain and
   * notify the key's waiters when they do ({@code release.sql}); how many it marked. Fewer than were read unmarked
   * means that one was deleted since it was read (releases take no advisory lock): its release may have seen no
   * mark and notified no one, so the try looks again at once.
   */
  private int contend(Connection connection, long ours) throws SQLException {
    try (PreparedStatement update = calls.prepare(connection, sql.contend)) {
      update.setString(1, request.key());
      update.setLong(2, ours);
      return update.executeUpdate();
    }
  }

  /** Sets our entry's expiry {@code millis} from now: a holder's expiry, or a waiter's ttl. */
  private void refresh(Connection connection, long id, long millis) throws SQLException {
    try (PreparedStatement update = calls.prepare(connection, sql.refresh)) {
      update.setLong(1, millis);
      update.setString(2, request.key());
      update.setLong(3, id);
      update.executeUpdate();
    }
  }

  /** Adds our entry at the end of the queue, expiring {@code millis} from now; its id, or 0 if ours was there already. */
  private long insert(Connection connection, long millis) throws SQLException {
    try (PreparedStatement insert = calls.prepare(connection, sql.insert)) {
      bindEntry(insert, 1, millis);
      insert.setString(7, request.key());
      insert.setString(8, request.ownerId());
      try (ResultSet row = insert.executeQuery()) {
        return row.next() ? row.getLong(1) : 0;
      }
    }
  }

  /**
   * Sets the six values of our entry from parameter {@code first} on: key, owner id, holder record, mode, capacity,
   * and how long it lives.
   */
  private void bindEntry(PreparedStatement statement, int first, long millis) throws SQLException {
    statement.setString(first, request.key());
    statement.setString(first + 1, request.ownerId());
    statement.setString(first + 2, request.ownerRecord());
    statement.setString(first + 3, request.rule().mode().name());
    statement.setInt(first + 4, request.rule().capacity());
    statement.setLong(first + 5, millis);
  }

  @Override
  public void stopWaiting() {
    if (registered != null) {
      store.unregister(request.key(), registered);
      registered = null;
    }
  }

  @Override
  public void abandon() {
    stopWaiting();
    if (written) {
      store.deleteEntry(request.key(), request.ownerId());
      written = false;
    }
  }

  /**
   * Where our entry stands.
   *
   * @param entryId our entry's id, 0 if none was written
   * @param holds whether it holds by the rule
   * @param awaitedExpiresInMillis when the first of the entries it waits for expires unless renewed
   * @param aheadChanged whether an entry ahead of ours was deleted between the read and the mark
   */
  private record Place(long entryId, boolean holds, long awaitedExpiresInMillis, boolean aheadChanged) {}
}
