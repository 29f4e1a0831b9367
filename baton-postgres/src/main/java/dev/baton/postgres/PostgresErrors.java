package dev.baton.postgres;

import dev.baton.BackendUnavailableException;
import dev.baton.LockException;
import dev.baton.PermissionDeniedException;
import java.sql.SQLException;

/**
 * What a failed call means to Baton: a refusal (a wrong password, a user without the right to the lock table) fails at
 * once with {@link PermissionDeniedException}; anything else is the server being unreachable or failing, which the
 * engine retries ({@link BackendUnavailableException}). Messages never carry a password.
 */
final class PostgresErrors {
  /** SQLSTATE class 28: invalid authorization specification (a wrong password, an unknown user). */
  private static final String AUTHORIZATION = "28";
  /** SQLSTATE 42501: insufficient privilege. */
  private static final String PRIVILEGE = "42501";
  /** What a user refused the lock table's use needs. */
  private static final String LOCK_TABLE_GRANTS = "Grant the user SELECT, INSERT, UPDATE and DELETE on the lock table"
      + " and USAGE on its sequence, or have an administrator create them with the DDL in baton-postgres's"
      + " documentation.";

  private PostgresErrors() {}

  static LockException translate(String what, String server, SQLException e) {
    return translate(what, server, e, LOCK_TABLE_GRANTS);
  }

  /** As {@link #translate(String, String, SQLException)}, with {@code grant} saying what a refused privilege needs. */
  static LockException translate(String what, String server, SQLException e, String grant) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String reason = String.valueOf(e.getMessage());
    if (state.startsWith(AUTHORIZATION)) {
      return new PermissionDeniedException(what + ": PostgreSQL at " + server + " refused the login: " + reason
          + " (SQLSTATE " + state + "). Check the user name and password.");
    }
    if (state.equals(PRIVILEGE)) {
      return new PermissionDeniedException(what + ": PostgreSQL at " + server + " refused: " + reason
          + ". " + grant);
    }
    return new BackendUnavailableException(what + ": PostgreSQL at " + server + " failed: " + reason
        + (state.isEmpty() ? "" : " (SQLSTATE " + state + ")")
        + ". Check that PostgreSQL runs there and accepts connections.");
  }
}
