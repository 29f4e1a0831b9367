package dev.baton.bench.suite;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Spring Integration's {@code JdbcLockRegistry} on its {@code DefaultLockRepository}, with their defaults (a waiter
 * tries again every 100 ms; a lock expires 10 s after it was taken, by the JVM's clock), on a HikariCP pool. Its
 * table comes from the DDL Spring Integration ships for PostgreSQL, run when {@code INT_LOCK} is missing.
 */
final class JdbcLockRegistryContender implements Contender {
  private static final String SCHEMA = "/org/springframework/integration/jdbc/schema-postgresql.sql";

  private final HikariDataSource pool;
  private final DefaultLockRepository repository;
  private final JdbcLockRegistry registry;

  JdbcLockRegistryContender(String postgresUri) throws SQLException {
    pool = PostgresTarget.of(postgresUri).pool("jdbc-lock-registry");
    try {
      createTables();
      repository = new DefaultLockRepository(pool);
      repository.setTransactionManager(new DataSourceTransactionManager(pool));
      repository.afterPropertiesSet();
      repository.afterSingletonsInstantiated();
      registry = new JdbcLockRegistry(repository);
    } catch (SQLException | RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  private void createTables() throws SQLException {
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
      try (ResultSet exists = statement.executeQuery("SELECT to_regclass('int_lock') IS NOT NULL")) {
        exists.next();
        if (exists.getBoolean(1)) {
          return;
        }
      }
      statement.execute(schema());
    }
  }

  private static String schema() {
    try (InputStream in = JdbcLockRegistryContender.class.getResourceAsStream(SCHEMA)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Locker locker(String key, Hold hold) {
    if (hold != Hold.LOCK) {
      throw hold.unsupportedBy(this);
    }
    return Locker.of(registry.obtain(key));
  }

  @Override
  public void close() {
    repository.close();
    pool.close();
  }
}
