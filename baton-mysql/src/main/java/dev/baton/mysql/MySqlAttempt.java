package dev.baton.mysql;

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
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One acquisition in MySQL or MariaDB.
 *
 * <p>The first try, and any try after our entry expired, is one short transaction ({@link #enqueue}): it takes the next
 * fencing token from the counter row ({@code next-token.sql}), whose row lock it holds to its commit, reads the key's
 * live entries in queue order, and adds ours at the end, holding if the core's {@link QueueRule} says so of the entries
 * ahead. As every transaction that adds an entry holds the counter's row lock from its token to its commit, an entry's
 * token is smaller than every token committed after it, and its read (at READ COMMITTED, after the lock) sees every
 * entry with a smaller token: mutual exclusion holds as it does for one queue in one process. Tokens only grow, across
 * restarts too: the counter is a row, not an {@code AUTO_INCREMENT}. Where the connection allows it, the first try is
 * first that transaction in one round trip ({@link #claim}), adding our entry only if the key has no live entry, where
 * every rule holds: several statements in one call on the client's own pool, one compound statement on an
 * application's {@code DataSource} on MariaDB ({@link ClaimStatement}); a key with entries takes the full
 * transaction.
 *
 * <p>A later try is two statements without a transaction ({@link #look}): the entries ahead of ours can only leave
 * (every new entry comes after ours), so it reads them and, if ours holds or its waiting ttl runs low, sets our
 * entry's expiry anew, only while it is live ({@code refresh.sql}), and gives the entry up if the look lasted as long as
 * the entry had left, in which the statement may have waited past its expiry before it wrote ({@link #cameInTime}): an
 * expired entry is never counted on again, and a try that finds ours gone queues again at the end, as its ttl said.
 *
 * <p>Waiting: MySQL has no {@code NOTIFY}. A waiter is woken at once when a client of the same process frees the key,
 * and otherwise looks again after an adaptive interval: 10 ms after a look that found the queue moved (the entry it
 * waits for is another than at its last look), doubling while it stays put, up to 25 ms while the queue moved within
 * the last second and up to the client's {@code maxPollInterval} after, and never later than the entry it waits for
 * expires nor than a third of its own ttl. So on a busy key, where holds are short, waiters look often and a hot key
 * passes from process to process every few tens of milliseconds, and on a lock held for long they look rarely (a fixed
 * doubling without the busy bound let the waiters' intervals compound: four clients on a hot key passed it 8 times a
 * second instead of about 60). A lock released by another process passes on within that interval, and a waiting client costs one indexed read per
 * interval per key (the engine has one waiter per key and client talk to the store). {@code GET_LOCK} could wake
 * waiters at once, but it lives in one session on one server: it needs a connection held per waiter, and on Galera
 * it is node-local.
 *
 * <p>Each read of the key's entries starts at the key's floor ({@link KeyFloors}), which the first try's transaction
 * raises: past the entries released before it, which InnoDB keeps as delete-marked records until its purge runs, and
 * which an uncontended loop on one key would otherwise read through by the thousand.
 *
 * <p>A try that does not hold marks the entries ahead of its own as waited for ({@code contend.sql}), so that their
 * holders release them at the end of a chain of local hand-overs; a single try (one that will not wait) writes nothing
 * else unless it holds.
 *
 * <p>The time a try compares entries' expiries with is the database's, from before the try waited for the cluster on a
 * Galera node ({@link CausalReads}): a wait covers what the cluster committed before the statement that waits began,
 * and on a node that lags it can last longer than a holder's entry had left, during which the holder, renewing on
 * another node, renews again. A statement's {@code UTC_TIMESTAMP(6)} is the time it began, before its own wait, which
 * serves the statements that run alone ({@link #look}); in a transaction only the first statement waits, so the claim
 * and the full transaction take the time first ({@code now.sql}, {@link Sql#entriesAtTryStart}) and compare with it.
 * Taken earlier, it makes entries look live longer, never expired sooner, and our new entry's expiry earlier, which
 * the engine, counting a lease from before it sent the try, sees earlier still.
 */
final class MySqlAttempt implements Attempt {
  /** The first interval between looks; it doubles up to the client's maximum. */
  static final long FIRST_POLL_MILLIS = 10;
  /** The longest interval between looks while the queue moves: on a busy key, holds are short. */
  static final long BUSY_POLL_MILLIS = 25;
  /** How long after the queue last moved a waiter still counts the key as busy. */
  static final long BUSY_NANOS = 1_000_000_000L;

  private final AttemptStore store;
  private final JdbcCalls calls;
  private final Sql sql;
  private final KeyFloors floors;
  /** The statement of the first try in one round trip ({@link #claim}), or null: the full transaction always. */
  private final ClaimStatement claimStatement;
  private final AcquireRequest request;
  private final byte[] key;
  private final String what;
  private final long ttlMillis;
  private final long waitingTtlMillis;
  private WakeUp registered;
  /** Our entry's token once written (perhaps: a commit whose reply was lost), 0 before. */
  private long entryId;
  private boolean written;
  private long pollMillis = FIRST_POLL_MILLIS;
  /** The token of the entry our last try waited for, 0 if none. */
  private long awaitedId;
  /** When a try last found the entry it waits for changed, or the attempt began ({@link System#nanoTime()}). */
  private long movedNanos;

  /**
   * An acquisition of {@code request}'s key in {@code store}, whose statements run through {@code calls} and read the
   * key from its floor in {@code floors}; its first try is one round trip of {@code claimStatement} ({@link #claim}), unless
   * that is null ({@link ClaimStatement}).
   */
  MySqlAttempt(AttemptStore store, JdbcCalls calls, Sql sql, KeyFloors floors, ClaimStatement claimStatement,
      AcquireRequest request) {
    this.store = store;
    this.calls = calls;
    this.sql = sql;
    this.floors = floors;
    this.claimStatement = claimStatement;
    this.request = request;
    this.key = Keys.bytes(request.key());
    this.what = "Acquiring '" + request.key() + "'";
    this.ttlMillis = Math.max(1, request.entryTtl().toMillis());
    this.waitingTtlMillis = Math.max(1, request.ttl().toMillis());
    this.movedNanos = System.nanoTime();
  }

  @Override
  public Outcome tryAcquire(WakeUp wakeUp) {
    if (request.mayWait() && registered == null) {
      store.register(request.key(), wakeUp); // before the read: no local release can slip between
      registered = wakeUp;
    }
    Place place = entryId != 0 ? calls.call(what, this::look)
        : claimStatement != null ? refusedWritesNothing(() -> calls.call(what, this::claim)) : null;
    if (place == null) {
      place = refusedWritesNothing(() -> calls.transaction(what, this::enqueue));
    }
    if (place.holds()) {
      stopWaiting();
      return Outcome.granted(new MySqlGrant(request, entryId));
    }
    if (place.gone()) {
      return Outcome.retryNow(); // our entry expired: the next try queues again
    }
    long now = System.nanoTime();
    if (place.awaitedId() != awaitedId) {
      awaitedId = place.awaitedId();
      movedNanos = now;
      pollMillis = FIRST_POLL_MILLIS; // the queue moved: it may move again soon
    }
    long poll = pollMillis;
    long max = Math.max(FIRST_POLL_MILLIS, store.maxPollInterval().toMillis());
    boolean busy = now - movedNanos < BUSY_NANOS;
    pollMillis = Math.min(pollMillis * 2, busy ? Math.min(max, BUSY_POLL_MILLIS) : max);
    long millis = Math.min(poll, Math.min(place.awaitedExpiresInMillis(), waitingTtlMillis / 3));
    return Outcome.waitAtMost(Duration.ofMillis(Math.max(1, millis)));
  }

  /**
   * Runs one try's call, and forgets what it may have written if the server refused it: a refusal or a table not set
   * up for Baton is the server's answer to a statement, whose transaction is rolled back.
   */
  private <T> T refusedWritesNothing(Supplier<T> call) {
    boolean before = written;
    try {
      return call.get();
    } catch (PermissionDeniedException | BackendSetupException e) {
      written = before;
      entryId = 0;
      throw e;
    }
  }

  /**
   * The first try in one round trip ({@code claim.sql}, several statements in one call, or {@code claim-block.sql},
   * one compound statement): our entry, holding, if the key has no live entry; null if it has one (the try then takes
   * {@link #enqueue}'s path; the token the claim took is skipped, as tokens need only grow). If a statement fails, the
   * server runs none after it, and the transaction it left open is rolled back here, or with the session as the
   * connection is closed as broken.
   */
  private Place claim(Connection connection) throws SQLException {
    long floor = floors.of(request.key());
    boolean before = written;
    written = true; // from here the entry may be there, whatever the reply
    long[] claimed;
    try (PreparedStatement claim = calls.prepare(connection, claimStatement.sql())) {
      claimStatement.bind(claim, key, floor, request, ttlMillis);
      claimed = added(claim);
    } catch (SQLException e) {
      rollback(connection);
      throw e;
    }
    if (claimed[0] != 1) {
      written = before;
      return null;
    }
    entryId = claimed[1];
    // Under the counter row's lock the key had no live entry: every entry below our token is gone for good.
    floors.raise(request.key(), entryId);
    return new Place(true, false, Long.MAX_VALUE, 0);
  }

  /** Runs the claim: the number of entries it added and the token it took, from its one result set. */
  private long[] added(PreparedStatement claim) throws SQLException {
    boolean rows = claim.execute();
    while (rows || claim.getUpdateCount() != -1) {
      if (rows) {
        try (ResultSet result = claim.getResultSet()) {
          if (result.next()) {
            long[] added = {result.getLong(1), result.getLong(2)};
            while (claim.getMoreResults() || claim.getUpdateCount() != -1) {
              // the commit's reply: read, so that an error in it is thrown here
            }
            return added;
          }
        }
      }
      rows = claim.getMoreResults();
    }
    throw new SQLException(what + ": the claim returned no result set; the connection ran only its first statement"
        + " (claim.sql needs allowMultiQueries)");
  }

  /** Ends the transaction a call of several statements left open as one failed; the session ends it otherwise. */
  static void rollback(Connection connection) {
    try (Statement rollback = connection.createStatement()) {
      rollback.execute("ROLLBACK");
    } catch (SQLException e) {
      // The connection is closed as broken: the server ends the transaction with the session.
    }
  }

  /**
   * The transaction of a try without an entry: the try's time ({@code now.sql}), the token, the read, our entry. The
   * read, the marks and our entry's expiry take the try's time, from before the token's statement, which on a Galera
   * node waits for the cluster first ({@link Sql#entriesAtTryStart}).
   */
  private Place enqueue(Connection connection) throws SQLException {
    try (PreparedStatement now = calls.prepare(connection, sql.now)) {
      now.execute();
    }
    long token = nextToken(connection);
    List<Entry> entries = read(connection, sql.entriesAtTryStart);
    // Under the counter row's lock: every entry below the first live one, or below our token if none is, is gone.
    floors.raise(request.key(), entries.isEmpty() ? token : entries.get(0).id());
    int awaited = request.rule().awaited(Entry.modes(entries));
    boolean holds = awaited == QueueRule.HOLDS;
    long expires = awaitedExpiry(entries, awaited);
    if (!holds) {
      contend(connection, sql.contendAtTryStart, entries, token); // a single try too: another client wants the key
    }
    if (!holds && !request.mayWait()) {
      return new Place(false, false, expires, awaitedId(entries, awaited));
    }
    written = true; // from here the entry may be there, whatever the reply
    try (PreparedStatement insert = calls.prepare(connection, sql.insert)) {
      insert.setBytes(1, key);
      insert.setLong(2, token);
      insert.setString(3, request.ownerId());
      insert.setString(4, request.ownerRecord());
      insert.setString(5, request.rule().mode().name());
      insert.setInt(6, request.rule().capacity());
      insert.setLong(7, holds ? ttlMillis : waitingTtlMillis);
      insert.executeUpdate();
    }
    entryId = token;
    return new Place(holds, false, expires, awaitedId(entries, awaited));
  }

  /**
   * The try of a waiter with an entry: the read, and our entry's expiry set anew if it holds or runs low, unless the
   * renewal may have come after our entry expired ({@link #cameInTime}).
   */
  private Place look(Connection connection) throws SQLException {
    long sentAt = System.nanoTime();
    List<Entry> entries = read(connection, sql.entries);
    int ours = -1;
    for (int i = 0; i < entries.size() && ours < 0; i++) {
      if (entries.get(i).id() == entryId) {
        ours = i;
      }
    }
    if (ours < 0) {
      entryId = 0;
      return Place.GONE;
    }
    List<Entry> ahead = entries.subList(0, ours);
    int awaited = request.rule().awaited(Entry.modes(ahead));
    boolean holds = awaited == QueueRule.HOLDS;
    boolean runsLow = entries.get(ours).remainingMillis() < waitingTtlMillis * 2 / 3;
    if (!holds) {
      contend(connection, sql.contend, ahead, entryId);
    }
    if (holds || runsLow) {
      boolean live = refresh(connection, holds ? ttlMillis : waitingTtlMillis);
      if (!live || !cameInTime(connection, sentAt, entries.get(ours).remainingMillis())) {
        entryId = 0;
        return Place.GONE;
      }
    }
    return new Place(holds, false, awaitedExpiry(ahead, awaited), awaitedId(ahead, awaited));
  }

  /**
   * Whether the renewal of our entry by this look, sent at {@code sentAt} ({@link System#nanoTime()}) when the entry
   * had {@code remainingMillis} left (counted from the read, which began after that), came before the entry expired;
   * if it may not have, deletes the entry. {@code refresh.sql} finds our entry live by the time its statement began,
   * and the statement then waits before it writes: on a Galera node for the cluster, wherever for a row lock. One that
   * wrote after our entry expired would make it live again, after another client, counting it gone, may have taken the
   * key (from a node that does not lag, or on the same server). A look that returned within the time the entry had left
   * wrote before the entry expired; one that did not gives the entry up, and the next try queues again, behind any such
   * client. The client's clock measures only how long the look took.
   */
  private boolean cameInTime(Connection connection, long sentAt, long remainingMillis) throws SQLException {
    if (System.nanoTime() - sentAt < TimeUnit.MILLISECONDS.toNanos(remainingMillis)) {
      return true;
    }
    long revived = entryId;
    entryId = 0; // whatever the delete's reply: the entry is not counted on again
    try (PreparedStatement delete = calls.prepare(connection, sql.releaseExpired)) {
      delete.setBytes(1, key);
      delete.setLong(2, revived);
      delete.executeUpdate();
    }
    return false;
  }

  /**
   * Marks the live entries ahead of ours ({@code ahead}, before token {@code ours}) as waited for, so that their
   * holders release them at the end of a chain of local hand-overs; a statement ({@code statement}: {@code contend.sql}
   * as the read compared) only if one of them is unmarked.
   */
  private void contend(Connection connection, String statement, List<Entry> ahead, long ours) throws SQLException {
    if (ahead.stream().allMatch(Entry::contended)) {
      return;
    }
    try (PreparedStatement update = calls.prepare(connection, statement)) {
      update.setBytes(1, key);
      update.setLong(2, ours);
      update.executeUpdate();
    }
  }

  private long nextToken(Connection connection) throws SQLException {
    try (PreparedStatement next = connection.prepareStatement(sql.nextToken, Statement.RETURN_GENERATED_KEYS)) {
      if (next.executeUpdate() == 1) {
        try (ResultSet token = next.getGeneratedKeys()) {
          if (token.next() && token.getLong(1) > 0) {
            return token.getLong(1);
          }
        }
      }
    }
    throw new BackendSetupException(what + ": the counter of fencing tokens " + sql.table + "_fencing has no row 1."
        + " Add it: INSERT INTO " + sql.table + "_fencing (id, v) VALUES (1, 0), as baton-mysql's DDL does.");
  }

  /** The key's live entries from its floor, read by {@code statement} ({@code entries.sql} at one time or another). */
  private List<Entry> read(Connection connection, String statement) throws SQLException {
    List<Entry> entries;
    try (PreparedStatement read = calls.prepare(connection, statement)) {
      read.setBytes(1, key);
      read.setLong(2, floors.of(request.key()));
      try (ResultSet rows = read.executeQuery()) {
        entries = Entry.readAll(rows);
      }
    }
    entries.forEach(entry -> request.rule().checkSamePermits(request.key(), entry.rule()));
    return entries;
  }

  /** Sets our entry's expiry {@code millis} from now if it is live; whether it was. */
  private boolean refresh(Connection connection, long millis) throws SQLException {
    try (PreparedStatement update = calls.prepare(connection, sql.refresh)) {
      update.setLong(1, millis);
      update.setBytes(2, key);
      update.setLong(3, entryId);
      return update.executeUpdate() == 1;
    }
  }

  /** The token of the entry we wait for, 0 if none. */
  private static long awaitedId(List<Entry> ahead, int awaited) {
    return awaited == QueueRule.HOLDS ? 0 : ahead.get(awaited).id();
  }

  /** When the first of the entries we wait for expires unless renewed, in milliseconds (+1). */
  private static long awaitedExpiry(List<Entry> ahead, int awaited) {
    if (awaited == QueueRule.HOLDS) {
      return Long.MAX_VALUE;
    }
    return ahead.subList(awaited, ahead.size()).stream().mapToLong(Entry::remainingMillis).min()
        .orElse(Long.MAX_VALUE - 1) + 1;
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
      entryId = 0;
    }
  }

  /**
   * Where our entry stands after a try.
   *
   * @param holds whether it holds by the rule
   * @param gone whether our entry expired, so that the next try queues again
   * @param awaitedExpiresInMillis when the first of the entries it waits for expires unless renewed
   * @param awaitedId the token of the entry it waits for, 0 if none
   */
  private record Place(boolean holds, boolean gone, long awaitedExpiresInMillis, long awaitedId) {
    static final Place GONE = new Place(false, true, 0, 0);
  }
}
