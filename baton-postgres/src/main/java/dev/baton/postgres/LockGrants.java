package dev.baton.postgres;

import dev.baton.PermissionDeniedException;
import dev.baton.jdbc.JdbcCalls;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * Whether the client's user may acquire: read as the client connects ({@code privileges.sql}), so that a user who may
 * read the table but not write all that a lock needs is refused at the acquire, naming what to grant, rather than
 * halfway through a lock's life (a renewal refused without UPDATE, a release refused without DELETE, which would leave
 * the row held until it expires). A user who lacks any is asked again at each acquire, so that a grant made since
 * takes effect without a restart; one who lacks none costs the acquire nothing. A client that only reads (status,
 * list) needs SELECT alone.
 */
final class LockGrants {
  private final JdbcCalls calls;
  private final Sql sql;
  private final String server;
  /** The privileges the user lacked when last asked, as in a GRANT; empty if none. */
  private volatile String missing;

  private LockGrants(JdbcCalls calls, Sql sql, String server) {
    this.calls = calls;
    this.sql = sql;
    this.server = server;
  }

  /** Reads what the user lacks. */
  static LockGrants read(JdbcCalls calls, Sql sql, String server) {
    LockGrants grants = new LockGrants(calls, sql, server);
    grants.missing = grants.readMissing();
    return grants;
  }

  /**
   * Returns if the user may acquire.
   *
   * @throws PermissionDeniedException naming {@code what} was refused and what to grant, if the user lacks a privilege
   */
  void checkMayAcquire(String what) {
    if (missing.isEmpty()) {
      return;
    }
    missing = readMissing();
    if (!missing.isEmpty()) {
      throw new PermissionDeniedException(what + ": the user may not lock on PostgreSQL at " + server + ": it lacks "
          + missing + " on the lock table " + sql.table + " (INSERT adds an entry, UPDATE renews it, DELETE releases"
          + " it). Grant the user SELECT, INSERT, UPDATE and DELETE on " + sql.table + " and USAGE on the sequence "
          + sql.table + "_fencing.");
    }
  }

  private String readMissing() {
    return calls.call("Reading the user's privileges on the lock table " + sql.table, connection -> {
      try (PreparedStatement read = calls.prepare(connection, sql.privileges); ResultSet row = read.executeQuery()) {
        row.next();
        return row.getString(1);
      }
    });
  }
}
