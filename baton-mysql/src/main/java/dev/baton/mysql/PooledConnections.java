package dev.baton.mysql;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;

/**
 * Baton's own pool, for a client made from an address: connections opened with MariaDB Connector/J as they are
 * needed, at most {@code maxIdle} of them kept for the next call. A connection that failed is closed, never reused,
 * with every idle one (what broke it, a server restart or a killed session, most likely ended them too).
 *
 * <p>On MariaDB each new connection also sets {@code idle_transaction_timeout} ({@code idle-transaction.sql}): a
 * client that stops in the middle of an acquire's transaction (a frozen process, a network cut the server does not
 * see) holds the counter row's lock, which every other acquire waits for, and the server ends its session, and so its
 * transaction, once it has been idle that long. MySQL has no such setting: there the bound is the operating system's
 * TCP timeouts, or the server's {@code wait_timeout}.
 */
final class PooledConnections implements Connections {
  private final Driver driver = new org.mariadb.jdbc.Driver();
  private final String url;
  private final Properties properties;
  private final BlockingDeque<Connection> idle;
  private final String idleTransaction;
  private final long idleTransactionSeconds;
  private volatile boolean closed;

  /**
   * Connections to {@code url}; on MariaDB, a session idle in a transaction for {@code idleTransactionSeconds} is
   * ended by the server.
   */
  PooledConnections(String url, Properties properties, int maxIdle, Sql sql, long idleTransactionSeconds) {
    this.url = url;
    this.properties = properties;
    this.idle = new LinkedBlockingDeque<>(maxIdle);
    this.idleTransaction = sql.idleTransaction;
    this.idleTransactionSeconds = idleTransactionSeconds;
  }

  @Override
  public Connection borrow() throws SQLException {
    Connection connection = idle.pollFirst();
    if (connection != null) {
      return connection;
    }
    connection = driver.connect(url, properties);
    if (connection == null) {
      throw new SQLException("MariaDB Connector/J does not accept the URL " + url, "08001");
    }
    if (connection.getMetaData().getDatabaseProductName().contains("MariaDB")) {
      try (PreparedStatement set = connection.prepareStatement(idleTransaction)) {
        set.setLong(1, idleTransactionSeconds);
        set.execute();
      } catch (SQLException e) {
        closeQuietly(connection);
        throw e;
      }
    }
    return connection;
  }

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
  static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      // Already broken: nothing more to free.
    }
  }
}
