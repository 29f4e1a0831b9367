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
import java.util.Arrays;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Spring Integration's {@code JdbcLockRegistry} on its {@code DefaultLockRepository}, with their defaults (a waiter
 * tries again every 100 ms; a lock expires 10 s after it was taken, by the JVM's clock), on a HikariCP pool. Its
 * table {@code INT_LOCK} comes from the DDL Spring Integration ships for the database (its {@code CREATE TABLE
 * INT_LOCK} statement), run when the table is missing.
 */
final class JdbcLockRegistryContender implements Contender {
  private static final String SCHEMAS = "/org/springframework/integration/jdbc/";

  private final HikariDataSource pool;
  private final DefaultLockRepository repository;
  private final JdbcLockRegistry registry;

  private JdbcLockRegistryContender(String uri, String schema) throws SQLException {
    pool = JdbcTarget.of(uri).pool("jdbc-lock-registry");
    try {
      createTable(schema);
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

  /** On the PostgreSQL server of {@code postgresUri}, with {@code schema-postgresql.sql}. */
  static JdbcLockRegistryContender postgres(String postgresUri) throws SQLException {
    return new JdbcLockRegistryContender(postgresUri, "schema-postgresql.sql");
  }

  /** On the MariaDB server of {@code mariaDbUri}, with {@code schema-mysql.sql}. */
  static JdbcLockRegistryContender mariaDb(String mariaDbUri) throws SQLException {
    return new JdbcLockRegistryContender(mariaDbUri, "schema-mysql.sql");
  }

  private void createTable(String schema) throws SQLException {
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
      if (!hasLockTable(connection)) {
        statement.execute(createLockTable(schema));
      }
    }
  }

  /** Whether the connection's database has {@code INT_LOCK}, by any case: PostgreSQL folds the name to lower case. */
  private static boolean hasLockTable(Connection connection) throws SQLException {
    try (ResultSet tables = connection.getMetaData().getTables(connection.getCatalog(), null, null,
        new String[] {"TABLE"})) {
      while (tables.next()) {
        if (tables.getString("TABLE_NAME").equalsIgnoreCase("INT_LOCK")) {
          return true;
        }
      }
      return false;
    }
  }

  /** The {@code CREATE TABLE INT_LOCK} statement of Spring Integration's {@code schema}. */
  private static String createLockTable(String schema) {
    try (InputStream in = JdbcLockRegistryContender.class.getResourceAsStream(SCHEMAS + schema)) {
      String ddl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return Arrays.stream(ddl.split(";")).filter(statement -> statement.contains("CREATE TABLE INT_LOCK "))
          .findFirst().orElseThrow(() -> new IllegalStateException(schema + " of Spring Integration has no"
              + " CREATE TABLE INT_LOCK statement; check the spring-integration-jdbc version."));
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
