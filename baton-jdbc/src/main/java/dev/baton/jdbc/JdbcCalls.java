package dev.baton.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Runs one call on a connection borrowed for it: a single statement in auto-commit mode, or one short transaction
 * (which the store may set up first: {@link ConnectionSetup}). Every call is bounded by the command timeout
 * ({@link CallDeadlines}); a failure becomes Baton's exception ({@link ErrorTranslation}).
 */
public final class JdbcCalls implements AutoCloseable {
  /** Work on a borrowed connection. */
  @FunctionalInterface
  public interface Work<T> {
    /** Does the work on {@code connection}. */
    T on(Connection connection) throws SQLException;
  }

  private final Connections connections;
  private final CallDeadlines deadlines;
  private final ErrorTranslation errors;
  private final TransactionSetup transactionSetup;
  private final String server;
  private final String table;

  /**
   * Calls to {@code server} on the lock table {@code table}, which errors name, bounded by {@code timeout} (watched
   * by a thread named {@code deadlineThread}); each transaction first set up by {@code transactionSetup}.
   */
  public JdbcCalls(Connections connections, Duration timeout, String deadlineThread, ErrorTranslation errors,
      TransactionSetup transactionSetup, String server, String table) {
    this.connections = connections;
    this.deadlines = new CallDeadlines(timeout, deadlineThread);
    this.errors = errors;
    this.transactionSetup = transactionSetup;
    this.server = server;
    this.table = table;
  }

  /** How messages name the server. */
  public String server() {
    return server;
  }

  /** Runs {@code work} in auto-commit mode; {@code what} names the call in error messages. */
  public <T> T call(String what, Work<T> work) {
    return run(what, work, false);
  }

  /** Runs {@code work} in one transaction, committed if it returns, rolled back if it throws. */
  public <T> T transaction(String what, Work<T> work) {
    return run(what, work, true);
  }

  /** A statement of {@code sql} for the call on {@code connection}, cancelled if the call outlasts the timeout. */
  public PreparedStatement prepare(Connection connection, String sql) throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    deadlines.runs(connection, statement);
    return statement;
  }

  /** A plain statement for the call on {@code connection}, cancelled if the call outlasts the timeout. */
  public Statement statement(Connection connection) throws SQLException {
    Statement statement = connection.createStatement();
    deadlines.runs(connection, statement);
    return statement;
  }

  private <T> T run(String what, Work<T> work, boolean transaction) {
    Connection connection;
    try {
      connection = connections.borrow();
    } catch (SQLException e) {
      throw errors.translate(what, server, table, e);
    }
    boolean broken = true;
    deadlines.start(connection);
    try {
      T result;
      if (transaction) {
        ConnectionSetup putBack = transactionSetup.apply(connection);
        connection.setAutoCommit(false);
        try {
          result = work.on(connection);
          connection.commit();
        } catch (SQLException | RuntimeException e) {
          rollback(connection);
          throw e;
        } finally {
          connection.setAutoCommit(true);
          putBack.apply(connection);
        }
      } else {
        result = work.on(connection);
      }
      broken = false;
      return result;
    } catch (SQLException e) {
      throw errors.translate(what, server, table, e);
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
