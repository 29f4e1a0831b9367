package dev.baton.postgres;

import dev.baton.servers.PostgresServer;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** Runs SQL against the test server as an operator would, behind the clients' backs. */
final class TestDatabase {
  private TestDatabase() {}

  /** Runs a statement; the number of rows it changed. */
  static int update(PostgresServer server, String sql) {
    try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
      return statement.executeUpdate(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("Could not run " + sql + ": " + e.getMessage(), e);
    }
  }

  /** Runs a query whose one row holds one number. */
  static long number(PostgresServer server, String sql) {
    try (Connection connection = connect(server); Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException("Could not run " + sql + ": " + e.getMessage(), e);
    }
  }

  /**
   * A data source that opens a new connection to the server for each {@code getConnection()}, as a pool hands them
   * out; it does nothing else.
   */
  static DataSource dataSource(PostgresServer server) {
    return (DataSource) Proxy.newProxyInstance(TestDatabase.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, method, args) -> {
          if (method.getName().equals("getConnection") && method.getParameterCount() == 0) {
            return connect(server);
          }
          if (method.getName().equals("toString")) {
            return "TestDataSource";
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }

  /**
   * Opens a connection that runs {@code sql} in a transaction and keeps it open, with its locks, until the connection
   * is closed (which rolls it back).
   */
  static Connection inOpenTransaction(PostgresServer server, String sql) {
    try {
      Connection connection = connect(server);
      try (Statement statement = connection.createStatement()) {
        connection.setAutoCommit(false);
        statement.execute(sql);
        return connection;
      } catch (SQLException e) {
        connection.close();
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Could not run " + sql + ": " + e.getMessage(), e);
    }
  }

  /** A literal of {@code text} for SQL. */
  static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  /** A connection of the test user, in auto-commit mode. */
  static Connection connect(PostgresServer server) throws SQLException {
    return DriverManager.getConnection(server.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
  }
}
