package dev.baton.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Creates the lock table and its sequence on first use if they are missing ({@code create.sql}), in a transaction
 * that holds an advisory lock so that clients starting together do not race on the catalog. When they exist, only
 * reads: a user without the right to create tables can use a table an administrator created.
 */
final class LockTable {
  private LockTable() {}

  static void ensureExists(PostgresCalls calls, Sql sql) {
    if (exists(calls, sql)) {
      return;
    }
    calls.transaction("Creating the lock table " + sql.table, connection -> {
      try (PreparedStatement lock = calls.prepare(connection, sql.queueLock)) {
        lock.setString(1, ""); // the advisory lock of the empty key, which no lock has
        lock.execute();
      }
      try (Statement create = calls.statement(connection)) {
        create.execute(sql.create);
      }
      return null;
    });
  }

  private static boolean exists(PostgresCalls calls, Sql sql) {
    return calls.call("Looking for the lock table " + sql.table, connection -> {
      try (PreparedStatement check = calls.prepare(connection, sql.exists); ResultSet row = check.executeQuery()) {
        return row.next() && row.getBoolean(1);
      }
    });
  }
}
