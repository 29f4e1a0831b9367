package dev.baton.spring.boot;

import dev.baton.BackendUnavailableException;
import dev.baton.LockClient;
import dev.baton.internal.Redaction;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * Connects a client on the application's {@link DataSource}, on the store its database's JDBC URL names:
 * {@code jdbc:mysql:} and {@code jdbc:mariadb:} on MySQL, any other on PostgreSQL; with the {@code baton.*}
 * properties that apply to it.
 */
final class DataSourceLockClients {
  private DataSourceLockClients() {}

  /**
   * Connects on {@code dataSource}: its pool lends a connection per call (on PostgreSQL, and one for notifications).
   *
   * @throws BatonStartupException naming the property, if one is set that a DataSource cannot take
   * @throws IllegalStateException naming the module to add, if the database's store module is not on the class path
   * @throws BackendUnavailableException if the DataSource gives no connection to read its URL from
   */
  static LockClient connect(BatonProperties properties, DataSource dataSource) {
    refuse("baton.username", properties.getUsername(), "the DataSource logs in as spring.datasource.username");
    refuse("baton.password", properties.getPassword(), "the DataSource logs in with spring.datasource.password");
    String url = urlOf(dataSource);
    if (isMySql(url)) {
      requireModule("dev.baton.mysql.MySqlLockClient", "baton-mysql", url);
      return MySqlDataSourceClients.connect(properties, dataSource);
    }
    requireModule("dev.baton.postgres.PostgresLockClient", "baton-postgres", url);
    return PostgresDataSourceClients.connect(properties, dataSource);
  }

  /** Whether a JDBC URL names a MySQL or MariaDB database. */
  static boolean isMySql(String url) {
    String lower = url.toLowerCase(Locale.ROOT);
    return lower.startsWith("jdbc:mysql:") || lower.startsWith("jdbc:mariadb:");
  }

  /** The JDBC URL of the database a connection of {@code dataSource} reaches, as its driver says it. */
  private static String urlOf(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      String url = connection.getMetaData().getURL();
      return url == null ? "" : url;
    } catch (SQLException e) {
      throw new BackendUnavailableException("The DataSource gave no connection to find which database it reaches: "
          + e.getMessage(), e);
    }
  }

  private static void requireModule(String className, String module, String url) {
    try {
      Class.forName(className, false, DataSourceLockClients.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("The application's DataSource reaches " + Redaction.withoutSecrets(url)
          + ", whose locks need dev.baton:" + module + " on the class path.", e);
    }
  }

  private static void refuse(String property, String value, String why) {
    if (value != null) {
      throw new BatonStartupException(property, "does not apply to the application's DataSource (" + why + ").",
          "Leave " + property + " out, or set baton.backend to a store's URI.", null);
    }
  }
}
