package dev.baton.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * Connections from the application's {@link DataSource}: closing one gives it back to the pool. Calls run in
 * auto-commit mode; a connection that came without it goes back without it, as the application's code expects of
 * its pool (not every pool puts back what a borrower changed).
 */
public final class DataSourceConnections implements Connections {
  private final DataSource dataSource;
  /** The connections lent out now that came without auto-commit: each is given back as it came. */
  private final Set<Connection> cameWithoutAutoCommit = ConcurrentHashMap.newKeySet();

  /** Connections borrowed from {@code dataSource}, which the application closes. */
  public DataSourceConnections(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public Connection borrow() throws SQLException {
    Connection connection = dataSource.getConnection();
    if (autoCommitOn(connection)) {
      cameWithoutAutoCommit.add(connection);
    }
    return connection;
  }

  @Override
  public void giveBack(Connection connection, boolean broken) {
    if (cameWithoutAutoCommit.remove(connection) && !broken) {
      try {
        connection.setAutoCommit(false);
      } catch (SQLException e) {
        // Closed below all the same: a pool checks a connection it gets back, and this one failed.
      }
    }
    PooledConnections.closeQuietly(connection);
  }

  @Override
  public Connection openListener() throws SQLException {
    Connection connection = dataSource.getConnection();
    autoCommitOn(connection); // kept until the client closes it
    return connection;
  }

  /** Turns auto-commit on if it is off: whether it was; a failure closes the connection. */
  private static boolean autoCommitOn(Connection connection) throws SQLException {
    try {
      if (connection.getAutoCommit()) {
        return false;
      }
      connection.setAutoCommit(true);
      return true;
    } catch (SQLException | RuntimeException e) {
      PooledConnections.closeQuietly(connection);
      throw e;
    }
  }

  @Override
  public void close() {
    // The application's pool: the application closes it.
  }
}
