package dev.baton.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Connections from the application's {@link DataSource}: closing one gives it back to the pool. */
public final class DataSourceConnections implements Connections {
  private final DataSource dataSource;

  /** Connections borrowed from {@code dataSource}, which the application closes. */
  public DataSourceConnections(DataSource dataSource) {
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
  public Connection openListener() throws SQLException {
    return borrow();
  }

  @Override
  public void close() {
    // The application's pool: the application closes it.
  }
}
