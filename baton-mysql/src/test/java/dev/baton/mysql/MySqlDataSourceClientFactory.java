package dev.baton.mysql;

import dev.baton.LockClient;
import dev.baton.jdbc.JdbcAddress;
import dev.baton.torture.LockClientFactory;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.mariadb.jdbc.MariaDbDataSource;
import org.mariadb.jdbc.MariaDbPoolDataSource;

/**
 * Connects the contract suite's clients, in this JVM and in child JVMs, to the test's MariaDB server through an
 * application's {@code DataSource}: MariaDB Connector/J's own pool with the driver's defaults (no
 * {@code allowMultiQueries}), one per address and JVM, shared by the clients as an application's pool is.
 */
public final class MySqlDataSourceClientFactory implements LockClientFactory {
  private static final Map<String, MariaDbPoolDataSource> POOLS = new ConcurrentHashMap<>();

  @Override
  public LockClient connect(String target) {
    return MySqlLockClient.builder().dataSource(POOLS.computeIfAbsent(target, MySqlDataSourceClientFactory::pool))
        .connect();
  }

  /** Closes the pools of this JVM's clients, which are closed already. */
  static void closePools() {
    POOLS.values().forEach(MariaDbPoolDataSource::close);
    POOLS.clear();
  }

  /** A plain {@code DataSource}, a new connection per call, of the server, user and password of {@code target}. */
  static MariaDbDataSource dataSource(String target) {
    JdbcAddress address = MySqlAddress.parse(target);
    try {
      MariaDbDataSource dataSource = new MariaDbDataSource(address.jdbcUrl());
      dataSource.setUser(address.user());
      dataSource.setPassword(address.password());
      return dataSource;
    } catch (SQLException e) {
      throw new IllegalStateException("Could not make a DataSource of " + address.display() + ": " + e.getMessage(),
          e);
    }
  }

  /** A pool of at most 8 connections, opened as they are needed, of the server, user and password of {@code target}. */
  private static MariaDbPoolDataSource pool(String target) {
    JdbcAddress address = MySqlAddress.parse(target);
    String url = address.jdbcUrl() + (address.jdbcUrl().contains("?") ? "&" : "?") + "maxPoolSize=8&minPoolSize=0";
    try {
      MariaDbPoolDataSource pool = new MariaDbPoolDataSource(url);
      pool.setUser(address.user());
      pool.setPassword(address.password());
      return pool;
    } catch (SQLException e) {
      throw new IllegalStateException("Could not make a pool of " + address.display() + ": " + e.getMessage(), e);
    }
  }
}
