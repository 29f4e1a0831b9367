package dev.baton.mysql;

import dev.baton.BackendSetupException;
import dev.baton.jdbc.JdbcCalls;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Sets up the lock table as a client connects: refuses a read-only server (a replica: {@code read-only.sql}) and a
 * Galera node whose reads do not wait for the cluster ({@link CausalReads}); if the
 * table or its counter is missing ({@code exists.sql}), creates both ({@code create.sql}, {@code create-fencing.sql},
 * each {@code IF NOT EXISTS}, so that clients starting together do not race) and the counter's one row
 * ({@code seed-fencing.sql}); then checks that both are of Baton's shape ({@code shape.sql}), so
 * that a table that is not fails the connect with what to do. When all is there, only reads: a user without the right
 * to create tables can use tables an administrator created.
 */
final class LockTable {
  private LockTable() {}

  /**
   * Makes what is missing and checks the shape.
   *
   * @throws dev.baton.PermissionDeniedException if a table is missing and the user may not create it
   * @throws dev.baton.BackendSetupException if the server is read-only (a replica), a Galera node without causal
   *     reads, the database is missing or a table is not of Baton's shape
   */
  static void ensureExists(JdbcCalls calls, Sql sql) {
    boolean readOnly = calls.call("Checking that the server takes writes", connection -> {
      try (PreparedStatement check = calls.prepare(connection, sql.readOnly);
          ResultSet row = check.executeQuery()) {
        return row.next() && row.getBoolean(1);
      }
    });
    if (readOnly) {
      throw new BackendSetupException("The server at " + calls.server() + " is read-only (read_only = ON): a"
          + " replica, whose locks a failover may lose. Give Baton the address of the primary.");
    }
    CausalReads.check(calls, sql);
    boolean made = calls.call("Looking for the lock table " + sql.table, connection -> {
      try (PreparedStatement check = calls.prepare(connection, sql.exists)) {
        check.setString(1, sql.database());
        check.setString(2, sql.tableName());
        check.setString(3, sql.tableName() + "_fencing");
        try (ResultSet count = check.executeQuery()) {
          return count.next() && count.getInt(1) == 2;
        }
      }
    });
    if (!made) {
      create(calls, sql);
    }
    calls.call("Checking the columns of the lock table " + sql.table, connection -> {
      try (PreparedStatement check = calls.prepare(connection, sql.shape)) {
        check.executeQuery().close();
      }
      return null;
    });
  }

  private static void create(JdbcCalls calls, Sql sql) {
    calls.call("Creating the lock table " + sql.table, connection -> {
      try (Statement create = calls.statement(connection)) {
        create.execute(sql.create);
        create.execute(sql.createFencing);
        create.execute(sql.seedFencing);
      }
      return null;
    });
  }
}
