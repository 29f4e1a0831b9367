package dev.baton.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Runs one call on a connection borrowed for it: a single statement in auto-commit mode, or one short transaction.
 * Every statement is bounded by the command timeout; a failure becomes Baton's exception ({@link PostgresErrors}).
 */
final class PostgresCalls {
  /** Work on a borrowed connection. */
  @FunctionalInterface
  interface Work<T> {
    T on(Connection connection) throws SQLException;
  }

  private final Connections connections;
  private final int timeoutSeconds;
  private final String server;

  PostgresCalls(Connections connections, Duration timeout, String server) {
    this.connections = connections;
    this.timeoutSeconds = (int) Math.max(1, (timeout.toMillis() + 999) / 1000);
    this.server = server;
  }

  /** Runs {@code work} in auto-commit mode; {@code what} names the call in error messages. */
  <T> T call(String what, Work<T> work) {
    return run(what, work, false);
  }

  /** Runs {@code work} in one transaction, committed if it returns, rolled back if it throws. */
  <T> T transaction(String what, Work<T> work) {
    return run(what, work, true);
  }

  /** A statement of {@code sql}, bounded by the command timeout. */
  PreparedStatement prepare(Connection connection, String sql) throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    statement.setQueryTimeout(timeoutSeconds);
    return statement;
  }

  /**
   * Runs {@code statement}, the key's advisory lock and a statement after it sent together (they run in one implicit
   * transaction, which holds the lock), and returns the second one's rows.
   */
  static ResultSet resultAfterLock(PreparedStatement statement) throws SQLException {
    statement.execute(); // the advisory lock's row
    if (!statement.getMoreResults()) {
      throw new SQLException("The statement after the advisory lock returned no rows.");
    }
    return statement.getResultSet();
  }

  private <T> T run(String what, Work<T> work, boolean transaction) {
    Connection connection;
    try {
      connection = connections.borrow();
    } catch (SQLException e) {
      throw PostgresErrors.translate(what, server, e);
    }
    boolean broken = true;
    try {
      T result;
      if (transaction) {
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
      throw PostgresErrors.translate(what, server, e);
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
