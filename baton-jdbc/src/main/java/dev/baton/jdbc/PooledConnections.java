package dev.baton.jdbc;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;

/**
 * Baton's own pool, for a client made from an address: connections opened with the store's driver as they are needed,
 * each set up by the store ({@link ConnectionSetup}) before its first use, at most {@code maxIdle} of them kept for the
 * next call. A connection that failed is closed, never reused.
 */
public final class PooledConnections implements Connections {
  private final Driver driver;
  private final String driverName;
  private final String url;
  private final Properties properties;
  private final ConnectionSetup setup;
  private final BlockingDeque<Connection> idle;
  private volatile boolean closed;

  /**
   * Connections to {@code url} through {@code driver} (which messages call {@code driverName}), given
   * {@code properties}, each set up by {@code setup} as it is opened.
   */
  public PooledConnections(Driver driver, String driverName, String url, Properties properties, int maxIdle,
      ConnectionSetup setup) {
    this.driver = driver;
    this.driverName = driverName;
    this.url = url;
    this.properties = properties;
    this.setup = setup;
    this.idle = new LinkedBlockingDeque<>(maxIdle);
  }

  @Override
  public Connection borrow() throws SQLException {
    Connection connection = idle.pollFirst();
    return connection != null ? connection : open();
  }

  /**
   * Keeps {@code connection} for the next call, or closes it. A broken one is closed with every idle one: what broke it
   * (a server restart, an administrator killing the session) most likely ended them too, and each would otherwise fail
   * one call before it is found out.
   */
  @Override
  public void giveBack(Connection connection, boolean broken) {
    if (broken) {
      closeQuietly(connection);
      closeIdle();
    } else if (closed || !idle.offerFirst(connection)) {
      closeQuietly(connection);
    } else if (closed && idle.remove(connection)) {
      closeQuietly(connection); // closed while it was being given back
    }
  }

  @Override
  public Connection openListener() throws SQLException {
    return open();
  }

  private Connection open() throws SQLException {
    Connection connection = driver.connect(url, properties);
    if (connection == null) {
      throw new SQLException(driverName + " does not accept the URL " + url, "08001");
    }
    try {
      setup.apply(connection);
    } catch (SQLException | RuntimeException e) {
      closeQuietly(connection);
      throw e;
    }
    return connection;
  }

  @Override
  public void close() {
    closed = true;
    closeIdle();
  }

  private void closeIdle() {
    for (Connection connection = idle.pollFirst(); connection != null; connection = idle.pollFirst()) {
      closeQuietly(connection);
    }
  }

  /** Closes {@code connection}, ignoring a failure: it is being discarded. */
  public static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      // Already broken: nothing more to free.
    }
  }
}
