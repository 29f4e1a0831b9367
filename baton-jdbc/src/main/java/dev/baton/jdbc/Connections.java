package dev.baton.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where a SQL store borrows a connection for one call, and gives it back right after: a {@link javax.sql.DataSource}
 * (the application's pool, {@link DataSourceConnections}) or Baton's own small pool ({@link PooledConnections}). No
 * connection is kept between calls, so no session state is relied on, and calls work through a pooler in transaction
 * mode.
 */
public interface Connections extends AutoCloseable {

  /** A connection in auto-commit mode. */
  Connection borrow() throws SQLException;

  /** Gives a borrowed connection back; {@code broken} if a call on it failed, so that it is not used again. */
  void giveBack(Connection connection, boolean broken);

  /** A connection of its own, kept open until the client closes (PostgreSQL's notifications listen on one). */
  Connection openListener() throws SQLException;

  /** Closes idle connections; borrowed ones are closed as they come back. */
  @Override
  void close();
}
