package dev.baton.postgres;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where the backend borrows a connection for one call, and gives it back right after: a {@link javax.sql.DataSource}
 * (the application's pool) or Baton's own small pool. No connection is kept between calls, so no session state is
 * relied on, and the calls work through a pooler in transaction mode.
 */
interface Connections extends AutoCloseable {

  /** A connection in auto-commit mode. */
  Connection borrow() throws SQLException;

  /** Gives a borrowed connection back; {@code broken} if a call on it failed, so that it is not used again. */
  void giveBack(Connection connection, boolean broken);

  /** A connection of its own for notifications, kept open until the client closes. */
  Connection openListener() throws SQLException;

  /** Closes idle connections; borrowed ones are closed as they come back. */
  @Override
  void close();
}
