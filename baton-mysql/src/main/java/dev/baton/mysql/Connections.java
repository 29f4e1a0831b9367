package dev.baton.mysql;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where the backend borrows a connection for one call, and gives it back right after: a {@link javax.sql.DataSource}
 * (the application's pool) or Baton's own small pool. No connection is kept between calls, and no session state (no
 * {@code GET_LOCK}) is relied on.
 */
interface Connections extends AutoCloseable {

  /** A connection in auto-commit mode. */
  Connection borrow() throws SQLException;

  /** Gives a borrowed connection back; {@code broken} if a call on it failed, so that it is not used again. */
  void giveBack(Connection connection, boolean broken);

  /** Closes idle connections; borrowed ones are closed as they come back. */
  @Override
  void close();
}
