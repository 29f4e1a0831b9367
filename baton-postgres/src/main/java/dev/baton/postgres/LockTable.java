package dev.baton.postgres;

import dev.baton.PermissionDeniedException;
import dev.baton.jdbc.JdbcCalls;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets up the lock table as a client connects: creates the table and its sequence on first use if they are missing
 * ({@code create.sql}), and the expiry index ({@code index.sql}) if the table lacks it, in a transaction that holds an
 * advisory lock so that clients starting together do not race on the catalog. It checks that the table is of Baton's
 * shape ({@code shape.sql}) before it adds anything to it, so that a table that is not fails the connect with what to
 * do. When all is there, only reads: a user without the right to create tables can use a table an administrator
 * created.
 */
final class LockTable {
  private static final Logger log = LoggerFactory.getLogger(LockTable.class);

  private LockTable() {}

  /**
   * Makes what is missing and checks the table's shape.
   *
   * @throws PermissionDeniedException if the table or its sequence is missing and the user may not create them
   * @throws dev.baton.BackendSetupException if the table's schema is missing or the table is not of Baton's shape
   */
  static void ensureExists(JdbcCalls calls, Sql sql) {
    Found found = find(calls, sql);
    if (!found.made()) {
      create(calls, sql, "Creating the lock table " + sql.table, sql.create, sql.index);
    }
    calls.call("Checking the columns of the lock table " + sql.table, connection -> {
      try (PreparedStatement check = calls.prepare(connection, sql.shape)) {
        check.executeQuery().close();
      }
      return null;
    });
    if (found.made() && !found.indexed()) {
      addIndex(calls, sql);
    }
  }

  /**
   * Adds the expiry index to a table made without it (by an earlier version, or by hand from older DDL). Only the
   * table's owner may: for any other user the sweep of expired entries scans the table instead, and the warning says
   * what to run.
   */
  private static void addIndex(JdbcCalls calls, Sql sql) {
    try {
      create(calls, sql, "Adding the expiry index to the lock table " + sql.table, sql.index);
    } catch (PermissionDeniedException e) {
      log.warn("The lock table {} has no index on expires_at, and this user may not add one, so the removal of"
          + " expired entries reads the whole table: have its owner run {}. ({})", sql.table, sql.index, e.getMessage());
    }
  }

  private static void create(JdbcCalls calls, Sql sql, String what, String... statements) {
    calls.transaction(what, connection -> {
      try (PreparedStatement lock = calls.prepare(connection, sql.queueLock)) {
        lock.setString(1, ""); // the advisory lock of the empty key, which no lock has
        lock.execute();
      }
      for (String statement : statements) {
        try (Statement create = calls.statement(connection)) {
          create.execute(statement);
        }
      }
      return null;
    });
  }

  private static Found find(JdbcCalls calls, Sql sql) {
    return calls.call("Looking for the lock table " + sql.table, connection -> {
      try (PreparedStatement check = calls.prepare(connection, sql.exists); ResultSet row = check.executeQuery()) {
        row.next();
        return new Found(row.getBoolean(1), row.getBoolean(2));
      }
    });
  }

  /**
   * What of the lock table is there.
   *
   * @param made whether the table and its sequence are
   * @param indexed whether its expiry index is
   */
  private record Found(boolean made, boolean indexed) {}
}
