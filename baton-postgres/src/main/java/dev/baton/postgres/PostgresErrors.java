package dev.baton.postgres;

import dev.baton.BackendSetupException;
import dev.baton.BackendUnavailableException;
import dev.baton.LockException;
import dev.baton.PermissionDeniedException;
import java.sql.SQLException;
import java.util.List;

/**
 * What a failed call means to Baton, by its SQLSTATE: a refusal (class 28, a wrong password or an unknown user;
 * 42501, a missing privilege) is a {@link PermissionDeniedException}; a database that answered but is not set up for
 * Baton (3D000 no such database, 3F000 no such schema, 42P01 no such table or sequence, any other class 42 error, and
 * classes 22 and 23, values or constraints the table's columns do not take) is a {@link BackendSetupException}; both
 * fail at once. Everything else (class 08 connection, 53 insufficient resources, 57 operator intervention such as
 * 57P01 admin shutdown or 57014 a statement cancelled at the command timeout, 40 a rolled-back transaction, 25006 a
 * read-only server, errors without a SQLSTATE from the driver's own I/O) is the server being unreachable or failing,
 * which the engine retries ({@link BackendUnavailableException}). Messages never carry a password.
 */
final class PostgresErrors {
  /** SQLSTATE class 28: invalid authorization specification (a wrong password, an unknown user). */
  private static final String AUTHORIZATION = "28";
  /** SQLSTATE 42501: insufficient privilege. */
  private static final String PRIVILEGE = "42501";
  /** SQLSTATE 3D000: invalid catalog name, the database of the address does not exist. */
  private static final String NO_DATABASE = "3D000";
  /** SQLSTATE 3F000: invalid schema name. */
  private static final String NO_SCHEMA = "3F000";
  /** SQLSTATE 42P01: undefined table (or sequence). */
  private static final String NO_TABLE = "42P01";
  /** SQLSTATE class 08: connection exception. */
  private static final String CONNECTION = "08";
  /** SQLSTATE class 57: operator intervention, such as a shutdown or a statement cancelled at the command timeout. */
  private static final String OPERATOR_INTERVENTION = "57";
  /**
   * SQLSTATE classes of a server that answered that the lock table is not Baton's: syntax or access rule (42, a
   * missing column among them), data (22, a value a column does not hold), integrity constraint (23).
   */
  private static final List<String> NOT_BATONS_TABLE = List.of("42", "22", "23");
  /** What a user refused the lock table's use needs. */
  private static final String LOCK_TABLE_GRANTS = "Grant the user SELECT, INSERT, UPDATE and DELETE on the lock table"
      + " and USAGE on its sequence, or have an administrator create them with the DDL in baton-postgres's"
      + " documentation.";
  private static final String DDL = "the DDL in baton-postgres's documentation (docs/postgresql.md, The table)";

  private PostgresErrors() {}

  /** As {@link #translate(String, String, String, SQLException, String)}, for the lock table's grants. */
  static LockException translate(String what, String server, String table, SQLException e) {
    return translate(what, server, table, e, LOCK_TABLE_GRANTS);
  }

  /**
   * Baton's exception for {@code e}, thrown by the call {@code what} to {@code server} on the lock table {@code table}
   * (null where the call does not use it), with {@code grant} saying what a refused privilege needs.
   */
  static LockException translate(String what, String server, String table, SQLException e, String grant) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String reason = String.valueOf(e.getMessage()) + (state.isEmpty() ? "" : " (SQLSTATE " + state + ")");
    String answered = what + ": PostgreSQL at " + server;
    if (state.startsWith(AUTHORIZATION)) {
      return new PermissionDeniedException(answered + " refused the login: " + reason
          + ". Check the user name and password.");
    }
    if (state.equals(PRIVILEGE)) {
      return new PermissionDeniedException(answered + " refused: " + reason + ". " + grant);
    }
    if (state.equals(NO_DATABASE)) {
      return new BackendSetupException(answered + " has no such database: " + reason
          + ". Correct the database in the address, or create it.");
    }
    String lockTable = table == null ? "the table" : "the lock table " + table;
    if (state.equals(NO_SCHEMA)) {
      return new BackendSetupException(answered + " has no schema for " + lockTable + ": " + reason
          + ". Create the schema (CREATE SCHEMA, and GRANT USAGE ON SCHEMA to the user), or name a table in a schema"
          + " that exists with table(...).");
    }
    if (state.equals(NO_TABLE)) {
      return new BackendSetupException(answered + " is missing " + lockTable + " or its sequence: " + reason
          + ". Create them with " + DDL + ", or connect once as a user who may create them.");
    }
    if (NOT_BATONS_TABLE.stream().anyMatch(state::startsWith)) {
      return new BackendSetupException(answered + " answered that " + lockTable + " is not Baton's: " + reason
          + ". Give Baton a table of its own, made with " + DDL + ", or name another one with table(...).");
    }
    return new BackendUnavailableException(answered + " failed: " + reason
        + (state.isEmpty() || state.startsWith(CONNECTION) || state.startsWith(OPERATOR_INTERVENTION)
        ? ". Check that PostgreSQL runs there and accepts connections." : ". Check the server's log."));
  }
}
