package dev.baton.mysql;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Connections from the application's {@link DataSource}: closing one gives it back to the pool. */
final class DataSourceConnections implements Connections {
  private final DataSource dataSource;

  DataSourceConnections(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public Connection borrow() throws SQLException {
    Connection connection = dataSource.getConnection();
    if (!connection.getAutoCommit()) {
      connection.setAutoCommit(true);
    }
    return connection;
  }

  @Override
  public void giveBack(Connection connection, boolean broken) {
    PooledConnections.closeQuietly(connection);
  }

  @Override
  public void close() {
    // The application's pool: the application closes it.
  }
}
