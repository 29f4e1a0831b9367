package dev.baton.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Runs one call on a connection borrowed for it: a single statement in auto-commit mode, or one short transaction.
 * Every call is bounded by the command timeout ({@link CallDeadlines}); a failure becomes Baton's exception
 * ({@link PostgresErrors}).
 */
final class PostgresCalls implements AutoCloseable {
  /** Work on a borrowed connection. */
  @FunctionalInterface
  interface Work<T> {
    T on(Connection connection) throws SQLException;
  }

  private final Connections connections;
  private final CallDeadlines deadlines;
  private final String server;
  private final String table;

  /** Calls to {@code server} on the lock table {@code table}, which errors name. */
  PostgresCalls(Connections connections, Duration timeout, String server, String table) {
    this.connections = connections;
    this.deadlines = new CallDeadlines(timeout);
    this.server = server;
    this.table = table;
  }

  /** Runs {@code work} in auto-commit mode; {@code what} names the call in error messages. */
  <T> T call(String what, Work<T> work) {
    return run(what, work, false);
  }

  /** Runs {@code work} in one transaction, committed if it returns, rolled back if it throws. */
  <T> T transaction(String what, Work<T> work) {
    return run(what, work, true);
  }

  /** A statement of {@code sql} for the call on {@code connection}, cancelled if the call outlasts the timeout. */
  PreparedStatement prepare(Connection connection, String sql) throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    deadlines.runs(connection, statement);
    return statement;
  }

  /** A plain statement for the call on {@code connection}, cancelled if the call outlasts the timeout. */
  Statement statement(Connection connection) throws SQLException {
    Statement statement = connection.createStatement();
    deadlines.runs(connection, statement);
    return statement;
  }

  /**
   * Runs {@code statement}, two statements sent together (they run in one implicit transaction: what the first takes
   * and sets, the key's advisory lock and the plans' settings, holds for the second), and returns the second one's
   * rows.
   */
  static ResultSet secondResult(PreparedStatement statement) throws SQLException {
    statement.execute(); // the first statement's row
    if (!statement.getMoreResults()) {
      throw new SQLException("The second of the statements sent together returned no rows.");
    }
    return statement.getResultSet();
  }

  private <T> T run(String what, Work<T> work, boolean transaction) {
    Connection connection;
    try {
      connection = connections.borrow();
    } catch (SQLException e) {
      throw PostgresErrors.translate(what, server, table, e);
    }
    boolean broken = true;
    deadlines.start(connection);
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
      throw PostgresErrors.translate(what, server, table, e);
    } finally {
      deadlines.end(connection);
      connections.giveBack(connection, broken);
    }
  }

  /** Stops bounding calls: the client is closing. */
  @Override
  public void close() {
    deadlines.close();
  }

  private static void rollback(Connection connection) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      // The connection is given back as broken: the server ends the transaction with the session.
    }
  }
}
