package dev.baton.mysql;

import dev.baton.BackendSetupException;
import dev.baton.BackendUnavailableException;
import dev.baton.LockException;
import dev.baton.PermissionDeniedException;
import java.sql.SQLException;
import java.util.Set;

/**
 * Translates the server's and the driver's errors into Baton's, by MySQL's error number (the same in MariaDB): a
 * refused login (1045, SQLSTATE 28000) or privilege (1044, 1142, 1143) is {@link PermissionDeniedException}, never
 * retried; a missing database (1049), table (1146) or column (1054), or any other answer that the lock table is not
 * Baton's (SQLSTATE classes 42, 22 and 23), is {@link BackendSetupException}; everything else (a connection refused or
 * cut, a statement that outlasted the command timeout, a lock wait that timed out (1205), a deadlock (1213), a
 * read-only server (1290, 1836)) is the server being unreachable or failing, which the engine retries
 * ({@link BackendUnavailableException}). Messages never carry a password: the server's own name only the user.
 */
final class MySqlErrors {
  private static final int ACCESS_DENIED = 1045;
  private static final Set<Integer> PRIVILEGE = Set.of(1044, 1142, 1143, 1227);
  private static final int NO_DATABASE = 1049;
  private static final int NO_TABLE = 1146;
  /** SQLSTATE classes of a server that answered that the lock table is not Baton's. */
  private static final Set<String> NOT_BATONS_TABLE = Set.of("42", "22", "23");
  private static final String GRANTS = "Grant the user SELECT, INSERT, UPDATE and DELETE on the lock table and on its"
      + " _fencing table, or have an administrator create them with the DDL in baton-mysql's documentation.";
  private static final String DDL = "the DDL in baton-mysql's documentation (dev.baton.mysql's package page)";

  private MySqlErrors() {}

  /** Baton's exception for {@code e}, thrown by the call {@code what} to {@code server} on the lock table {@code table}. */
  static LockException translate(String what, String server, String table, SQLException e) {
    int code = e.getErrorCode();
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String reason = e.getMessage() + (code == 0 ? "" : " (error " + code + (state.isEmpty() ? "" : ", SQLSTATE "
        + state) + ")");
    String answered = what + ": the server at " + server;
    if (code == ACCESS_DENIED || state.startsWith("28")) {
      return new PermissionDeniedException(answered + " refused the login: " + reason
          + ". Check the user name and password.");
    }
    if (PRIVILEGE.contains(code)) {
      return new PermissionDeniedException(answered + " refused: " + reason + ". " + GRANTS);
    }
    if (code == NO_DATABASE) {
      return new BackendSetupException(answered + " has no such database: " + reason
          + ". Correct the database in the address, or create it.");
    }
    if (code == NO_TABLE) {
      return new BackendSetupException(answered + " is missing the lock table " + table + " or its counter "
          + table + "_fencing: " + reason + ". Create them with " + DDL + ", or connect once as a user who may.");
    }
    if (state.length() >= 2 && NOT_BATONS_TABLE.contains(state.substring(0, 2))) {
      return new BackendSetupException(answered + " answered that the lock table " + table + " is not Baton's: "
          + reason + ". Give Baton a table of its own, made with " + DDL + ", or name another one with table(...).");
    }
    return new BackendUnavailableException(answered + " failed: " + reason
        + ". Check that MySQL or MariaDB runs there and accepts connections.");
  }
}
