package dev.baton.bench.suite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The raw limit of PostgreSQL for a lock cycle: an {@code INSERT} of the key with an expiry by the database's clock,
 * then a {@code DELETE} of it, each a statement in auto-commit mode (one round trip), on a connection per thread.
 * Nothing waits: a key found taken fails the insert, so each thread must have a key of its own.
 */
final class RawPostgresContender implements Contender {
  private static final String TABLE = "CREATE TABLE IF NOT EXISTS bench_raw_locks (lock_key text PRIMARY KEY,"
      + " owner_id text NOT NULL, expires_at timestamptz NOT NULL)";
  private static final String INSERT = "INSERT INTO bench_raw_locks (lock_key, owner_id, expires_at)"
      + " VALUES (?, ?, clock_timestamp() + interval '30 seconds')";
  private static final String DELETE = "DELETE FROM bench_raw_locks WHERE lock_key = ? AND owner_id = ?";

  private final PostgresTarget target;
  private final List<Connection> connections = new CopyOnWriteArrayList<>();

  RawPostgresContender(String postgresUri) throws SQLException {
    target = PostgresTarget.of(postgresUri);
    try (Connection connection = target.connect(); Statement statement = connection.createStatement()) {
      statement.execute(TABLE);
    }
  }

  @Override
  public Locker locker(String key, Hold hold) throws SQLException {
    if (hold != Hold.LOCK) {
      throw hold.unsupportedBy(this);
    }
    Connection connection = target.connect();
    connections.add(connection);
    PreparedStatement insert = connection.prepareStatement(INSERT);
    PreparedStatement delete = connection.prepareStatement(DELETE);
    String owner = UUID.randomUUID().toString();
    insert.setString(1, key);
    insert.setString(2, owner);
    delete.setString(1, key);
    delete.setString(2, owner);
    return new Locker() {
      @Override
      public void lock() throws SQLException {
        insert.executeUpdate();
      }

      @Override
      public void unlock() throws SQLException {
        delete.executeUpdate();
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
