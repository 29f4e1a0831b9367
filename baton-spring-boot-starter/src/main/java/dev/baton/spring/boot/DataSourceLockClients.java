package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.postgres.PostgresLockClient;
import javax.sql.DataSource;

/**
 * Connects a PostgreSQL client on the application's {@link DataSource}, with the {@code baton.*} properties that apply
 * to it. Loaded only when baton-postgres is on the class path.
 */
final class DataSourceLockClients {
  private DataSourceLockClients() {}

  /**
   * Connects on {@code dataSource}: its pool lends a connection per call, and one for notifications.
   *
   * @throws BatonStartupException naming the property, if one is set that a DataSource cannot take
   */
  static LockClient connect(BatonProperties properties, DataSource dataSource) {
    refuse("baton.username", properties.getUsername(), "the DataSource logs in as spring.datasource.username");
    refuse("baton.password", properties.getPassword(), "the DataSource logs in with spring.datasource.password");
    PostgresLockClient.Builder builder = PostgresLockClient.builder().dataSource(dataSource)
        .defaultOptions(properties.lockOptions());
    if (properties.getNamespace() != null) {
      BatonProperties.checked("baton.namespace", () -> builder.namespace(properties.getNamespace()));
    }
    if (properties.getCommandTimeout() != null) {
      BatonProperties.checked("baton.command-timeout", () -> builder.commandTimeout(properties.getCommandTimeout()));
    }
    return builder.connect();
  }

  private static void refuse(String property, String value, String why) {
    if (value != null) {
      throw new BatonStartupException(property, "does not apply to the application's DataSource (" + why + ").",
          "Leave " + property + " out, or set baton.backend to a store's URI.", null);
    }
  }
}
