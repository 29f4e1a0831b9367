package dev.baton.mysql;

import dev.baton.servers.MariaDbServer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/** Runs SQL against the test server as an operator would, behind the clients' backs. */
final class TestDatabase {
  private TestDatabase() {}

  /** Runs a statement without parameters. */
  static void execute(MariaDbServer server, String sql) {
    try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("Could not run " + sql + ": " + e.getMessage(), e);
    }
  }

  /** Runs a statement whose one parameter is {@code key}'s bytes; the number of rows it changed. */
  static int updateForKey(MariaDbServer server, String sql, String key) {
    try (Connection connection = connect(server); PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setBytes(1, key.getBytes(StandardCharsets.UTF_8));
      return statement.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("Could not run " + sql + ": " + e.getMessage(), e);
    }
  }

  /** Runs a query whose one parameter is {@code key}'s bytes and whose one row holds one number. */
  static long numberForKey(MariaDbServer server, String sql, String key) {
    try (Connection connection = connect(server); PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setBytes(1, key.getBytes(StandardCharsets.UTF_8));
      try (ResultSet row = statement.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Could not run " + sql + ": " + e.getMessage(), e);
    }
  }

  /** How many rows of {@code baton_locks} have a key that starts with {@code prefix} ({@code ""}: all). */
  static long rowsUnder(MariaDbServer server, String prefix) {
    String sql = "SELECT count(*) FROM baton_locks WHERE LEFT(lock_key, LENGTH(?)) = ?";
    try (Connection connection = connect(server); PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setBytes(1, prefix.getBytes(StandardCharsets.UTF_8));
      statement.setBytes(2, prefix.getBytes(StandardCharsets.UTF_8));
      try (ResultSet row = statement.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Could not run " + sql + ": " + e.getMessage(), e);
    }
  }

  /** A counter of the server's status ({@code SHOW GLOBAL STATUS}), e.g. {@code Com_select}. */
  static long status(MariaDbServer server, String name) {
    try (Connection connection = connect(server); PreparedStatement statement = connection.prepareStatement(
        "SELECT variable_value FROM information_schema.global_status WHERE variable_name = ?")) {
      statement.setString(1, name.toUpperCase(Locale.ROOT));
      try (ResultSet row = statement.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Could not read the status " + name + ": " + e.getMessage(), e);
    }
  }

  /** A connection of the test user, in auto-commit mode. */
  static Connection connect(MariaDbServer server) throws SQLException {
    return DriverManager.getConnection(server.jdbcUrl(), MariaDbServer.USER, MariaDbServer.PASSWORD);
  }
}
