package dev.baton.bench.suite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The raw limit of PostgreSQL or MariaDB for a lock cycle: an {@code INSERT} of the key with an expiry by the
 * database's clock, then a {@code DELETE} of it, each a statement in auto-commit mode (one round trip), on a
 * connection per thread. Nothing waits: a key found taken fails the insert, so each thread must have a key of its own.
 */
final class RawJdbcContender implements Contender {
  private static final String DELETE = "DELETE FROM bench_raw_locks WHERE lock_key = ? AND owner_id = ?";

  private final JdbcTarget target;
  private final String insert;
  private final List<Connection> connections = new CopyOnWriteArrayList<>();

  private RawJdbcContender(String uri, String table, String insert) throws SQLException {
    target = JdbcTarget.of(uri);
    this.insert = insert;
    try (Connection connection = target.connect(); Statement statement = connection.createStatement()) {
      statement.execute(table);
    }
  }

  /** On the PostgreSQL server of {@code postgresUri}, with an expiry of {@code clock_timestamp()} + 30 s. */
  static RawJdbcContender postgres(String postgresUri) throws SQLException {
    return new RawJdbcContender(postgresUri, "CREATE TABLE IF NOT EXISTS bench_raw_locks (lock_key text PRIMARY KEY,"
        + " owner_id text NOT NULL, expires_at timestamptz NOT NULL)",
        "INSERT INTO bench_raw_locks (lock_key, owner_id, expires_at)"
            + " VALUES (?, ?, clock_timestamp() + interval '30 seconds')");
  }

  /** On the MariaDB server of {@code mariaDbUri}: an InnoDB table, an expiry of {@code UTC_TIMESTAMP(6)} + 30 s. */
  static RawJdbcContender mariaDb(String mariaDbUri) throws SQLException {
    return new RawJdbcContender(mariaDbUri, "CREATE TABLE IF NOT EXISTS bench_raw_locks (lock_key VARCHAR(255)"
        + " NOT NULL PRIMARY KEY, owner_id VARCHAR(64) NOT NULL, expires_at DATETIME(6) NOT NULL) ENGINE = InnoDB",
        "INSERT INTO bench_raw_locks (lock_key, owner_id, expires_at)"
            + " VALUES (?, ?, UTC_TIMESTAMP(6) + INTERVAL 30 SECOND)");
  }

  @Override
  public Locker locker(String key, Hold hold) throws SQLException {
    if (hold != Hold.LOCK) {
      throw hold.unsupportedBy(this);
    }
    Connection connection = target.connect();
    connections.add(connection);
    PreparedStatement insertion = connection.prepareStatement(insert);
    PreparedStatement deletion = connection.prepareStatement(DELETE);
    String owner = UUID.randomUUID().toString();
    insertion.setString(1, key);
    insertion.setString(2, owner);
    deletion.setString(1, key);
    deletion.setString(2, owner);
    return new Locker() {
      @Override
      public void lock() throws SQLException {
        insertion.executeUpdate();
      }

      @Override
      public void unlock() throws SQLException {
        deletion.executeUpdate();
      }
    };
  }

  @Override
  public void close() throws SQLException {
    for (Connection connection : connections) {
      connection.close();
    }
  }
}
