package dev.baton.bench.suite;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * ShedLock's JDBC provider, {@code JdbcTemplateLockProvider}, on a HikariCP pool, using the database's time, with
 * the table of ShedLock's documentation for the database (PostgreSQL or MySQL/MariaDB). A try-lock only: it cannot
 * wait, so each thread must have a key of its own, and a lock it finds taken fails the run as the raw limits do.
 */
final class ShedLockJdbcContender implements Contender {
  private static final Duration LOCK_AT_MOST_FOR = Duration.ofSeconds(30);

  private final HikariDataSource pool;
  private final JdbcTemplateLockProvider provider;

  private ShedLockJdbcContender(String uri, String table) throws SQLException {
    pool = JdbcTarget.of(uri).pool("shedlock");
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
      statement.execute(table);
    } catch (SQLException e) {
      pool.close();
      throw e;
    }
    provider = new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
        .withJdbcTemplate(new JdbcTemplate(pool)).usingDbTime().build());
  }

  /** On the PostgreSQL server of {@code postgresUri}. */
  static ShedLockJdbcContender postgres(String postgresUri) throws SQLException {
    return new ShedLockJdbcContender(postgresUri, "CREATE TABLE IF NOT EXISTS shedlock (name VARCHAR(64) NOT NULL,"
        + " lock_until TIMESTAMP NOT NULL, locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL,"
        + " PRIMARY KEY (name))");
  }

  /** On the MariaDB server of {@code mariaDbUri}, with the millisecond timestamps of ShedLock's MySQL table. */
  static ShedLockJdbcContender mariaDb(String mariaDbUri) throws SQLException {
    return new ShedLockJdbcContender(mariaDbUri, "CREATE TABLE IF NOT EXISTS shedlock (name VARCHAR(64) NOT NULL,"
        + " lock_until TIMESTAMP(3) NOT NULL, locked_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),"
        + " locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
  }

  @Override
  public Locker locker(String key, Hold hold) {
    if (hold != Hold.LOCK) {
      throw hold.unsupportedBy(this);
    }
    return new Locker() {
      private SimpleLock lock;

      @Override
      public void lock() {
        Optional<SimpleLock> taken = provider.lock(
            new LockConfiguration(ClockProvider.now(), key, LOCK_AT_MOST_FOR, Duration.ZERO));
        lock = taken.orElseThrow(() -> new IllegalStateException(key + " is taken: ShedLock cannot wait, it needs"
            + " a key per thread."));
      }

      @Override
      public void unlock() {
        lock.unlock();
        lock = null;
      }
    };
  }

  @Override
  public void close() {
    pool.close();
  }
}
