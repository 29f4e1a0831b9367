package dev.baton.mysql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.LockClient;
import dev.baton.jdbc.JdbcAddress;
import dev.baton.torture.LockClientFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Connects the contract suite's clients, in this JVM and in child JVMs, to the test's MariaDB server through an
 * application's {@code DataSource} of Oracle's MySQL Connector/J on a HikariCP pool (Spring Boot's pool, with the
 * driver's defaults), one per address and JVM, shared by the clients as an application's pool is.
 */
public final class MySqlConnectorJClientFactory implements LockClientFactory {
  private static final Map<String, HikariDataSource> POOLS = new ConcurrentHashMap<>();

  @Override
  public LockClient connect(String target) {
    return MySqlLockClient.builder().dataSource(POOLS.computeIfAbsent(target, MySqlConnectorJClientFactory::pool))
        .connect();
  }

  /** Closes the pools of this JVM's clients, which are closed already. */
  static void closePools() {
    POOLS.values().forEach(HikariDataSource::close);
    POOLS.clear();
  }

  /** A pool of at most 8 connections of the server, user and password of {@code target}, by MySQL Connector/J. */
  private static HikariDataSource pool(String target) {
    JdbcAddress address = MySqlAddress.parse(target);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(address.jdbcUrl().replaceFirst("^jdbc:mariadb:", "jdbc:mysql:"));
    config.setDriverClassName("com.mysql.cj.jdbc.Driver");
    config.setUsername(address.user());
    config.setPassword(address.password());
    config.setMaximumPoolSize(8);
    config.setMinimumIdle(0);
    return new HikariDataSource(config);
  }
}
