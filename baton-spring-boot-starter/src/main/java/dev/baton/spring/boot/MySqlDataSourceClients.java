package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.mysql.MySqlLockClient;
import javax.sql.DataSource;

/**
 * Connects a MySQL client on the application's {@link DataSource}, a MySQL or MariaDB database. Loaded only when its
 * database is one of them and baton-mysql is on the class path.
 */
final class MySqlDataSourceClients {
  private MySqlDataSourceClients() {}

  static LockClient connect(BatonProperties properties, DataSource dataSource) {
    MySqlLockClient.Builder builder = MySqlLockClient.builder().dataSource(dataSource)
        .defaultOptions(properties.lockOptions());
    if (properties.getNamespace() != null) {
      BatonProperties.checked("baton.namespace", () -> builder.namespace(properties.getNamespace()));
    }
    if (properties.getCommandTimeout() != null) {
      BatonProperties.checked("baton.command-timeout", () -> builder.commandTimeout(properties.getCommandTimeout()));
    }
    return builder.connect();
  }
}
