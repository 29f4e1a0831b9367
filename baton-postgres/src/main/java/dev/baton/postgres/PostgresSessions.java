package dev.baton.postgres;

import dev.baton.jdbc.JdbcAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

/**
 * An operator's tool, not for application code: ends the sessions of Baton's clients on one PostgreSQL database while
 * the server keeps running, as an administrator's or a pooler's {@code pg_terminate_backend} would, to see the clients
 * connect again with their locks intact. {@code baton torture --faults connection-kill} uses it on a server given by
 * address, and an operator may call it to try that fault on a staging database; no lock needs it.
 *
 * <pre>{@code
 * int ended = PostgresSessions.terminate("postgresql://app:secret@db.staging:5432/app");
 * }</pre>
 *
 * <p>It ends exactly the sessions named {@code baton} ({@code pg_stat_activity.application_name}) on the address's
 * database: every client made from an address names its connections so, unless the address sets
 * {@code ApplicationName} itself. No other application's session is touched, so it may run against a shared
 * database; clients on an application's data source are named by that pool and are not touched either. It logs in
 * on a short connection of its own, named {@code baton-admin}, which it never counts.
 *
 * <p>The user needs the right to signal those sessions: the role the clients log in as (or a member of it), or a
 * member of {@code pg_signal_backend} (which may not end a superuser's sessions).
 */
public final class PostgresSessions {
  /** The application name of every connection a client made from an address opens. */
  static final String CLIENTS = "baton";
  private static final String ADMIN = "baton-admin";
  private static final int CONNECT_SECONDS = 5;
  private static final String TERMINATE = "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
      + " WHERE application_name = ? AND datname = current_database() AND pid <> pg_backend_pid()";
  private static final String SIGNAL_GRANT = "Log in as the role Baton's clients use, or grant this user"
      + " pg_signal_backend (GRANT pg_signal_backend TO user), which cannot end a superuser's sessions.";

  private PostgresSessions() {}

  /**
   * Ends Baton's sessions on the database of {@code address}
   * ({@code postgresql://user:password@host:5432/db} or {@code jdbc:postgresql://...}), logging in as its user.
   *
   * @return how many sessions were ended
   * @throws IllegalArgumentException if the address is malformed
   * @throws dev.baton.PermissionDeniedException if the server refused the user or password, or the user may not
   *     end those sessions
   * @throws dev.baton.BackendUnavailableException if the server could not be reached or failed
   */
  public static int terminate(String address) {
    JdbcAddress parsed = PostgresAddress.parse(address);
    return terminate(parsed, parsed.user(), parsed.password());
  }

  /**
   * Ends Baton's sessions on the database of {@code address}, logging in as {@code user}, for an address without
   * one.
   *
   * @return how many sessions were ended
   * @throws IllegalArgumentException if the address is malformed, or the user has no name or no password
   * @throws dev.baton.PermissionDeniedException if the server refused the user or password, or the user may not
   *     end those sessions
   * @throws dev.baton.BackendUnavailableException if the server could not be reached or failed
   */
  public static int terminate(String address, String user, String password) {
    if (user == null || user.isBlank() || password == null) {
      throw new IllegalArgumentException("A PostgreSQL user needs a name and a password; the name was '" + user
          + "'.");
    }
    return terminate(PostgresAddress.parse(address), user, password);
  }

  private static int terminate(JdbcAddress address, String user, String password) {
    Properties properties = address.login(user, password);
    properties.setProperty("connectTimeout", Integer.toString(CONNECT_SECONDS));
    properties.setProperty("loginTimeout", Integer.toString(CONNECT_SECONDS));
    properties.setProperty("socketTimeout", Integer.toString(CONNECT_SECONDS * 3));
    properties.setProperty("ApplicationName", ADMIN);
    try (Connection connection = DriverManager.getConnection(address.jdbcUrl(), properties);
        PreparedStatement statement = connection.prepareStatement(TERMINATE)) {
      statement.setString(1, CLIENTS);
      try (ResultSet count = statement.executeQuery()) {
        count.next();
        return Math.toIntExact(count.getLong(1));
      }
    } catch (SQLException e) {
      String as = user == null ? "" : " as user \"" + user + "\"";
      throw PostgresErrors.translate("Ending Baton's sessions" + as, address.display(), null, e, SIGNAL_GRANT);
    }
  }
}
