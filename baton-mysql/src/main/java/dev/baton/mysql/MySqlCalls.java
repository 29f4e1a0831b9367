package dev.baton.mysql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Runs one call on a connection borrowed for it: a single statement in auto-commit mode, or one short transaction at
 * READ COMMITTED (each statement reads what was committed before it, and locks no gaps). Every call is bounded by the
 * command timeout, through the connection's network timeout; a failure becomes Baton's exception
 * ({@link MySqlErrors}).
 */
final class MySqlCalls {
  /** Work on a borrowed connection. */
  @FunctionalInterface
  interface Work<T> {
    T on(Connection connection) throws SQLException;
  }

  private final Connections connections;
  private final String server;
  private final String table;

  /** Calls to {@code server} on the lock table {@code table}, which errors name. */
  MySqlCalls(Connections connections, String server, String table) {
    this.connections = connections;
    this.server = server;
    this.table = table;
  }

  /** How messages name the server. */
  String server() {
    return server;
  }

  /** Runs {@code work} in auto-commit mode; {@code what} names the call in error messages. */
  <T> T call(String what, Work<T> work) {
    return run(what, work, false);
  }

  /** Runs {@code work} in one transaction, committed if it returns, rolled back if it throws. */
  <T> T transaction(String what, Work<T> work) {
    return run(what, work, true);
  }

  /** A statement of {@code sql}. */
  static PreparedStatement prepare(Connection connection, String sql) throws SQLException {
    return connection.prepareStatement(sql);
  }

  private <T> T run(String what, Work<T> work, boolean transaction) {
    Connection connection;
    try {
      connection = connections.borrow();
    } catch (SQLException e) {
      throw MySqlErrors.translate(what, server, table, e);
    }
    boolean broken = true;
    try {
      T result;
      if (transaction) {
        connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        connection.setAutoCommit(false);
        try {
          result = work.on(connection);
          connection.commit();
        } catch (SQLException | RuntimeException e) {
          rollback(connection);
          throw e;
        } finally {
          connection.setAutoCommit(true);
        }
      } else {
        result = work.on(connection);
      }
      broken = false;
      return result;
    } catch (SQLException e) {
      throw MySqlErrors.translate(what, server, table, e);
    } finally {
      connections.giveBack(connection, broken);
    }
  }

  private static void rollback(Connection connection) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      // The connection is given back as broken: the server ends the transaction with the session.
    }
  }
}
