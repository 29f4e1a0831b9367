package dev.baton.jdbc;

import dev.baton.LockException;
import java.sql.SQLException;

/** How a SQL store tells a failed call's meaning to Baton: its error codes and SQLSTATEs, its messages. */
@FunctionalInterface
public interface ErrorTranslation {
  /**
   * Baton's exception for {@code e}, thrown by the call {@code what} to {@code server} on the lock table {@code table}
   * (null where the call does not use it).
   */
  LockException translate(String what, String server, String table, SQLException e);
}
