package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.postgres.PostgresLockClient;
import javax.sql.DataSource;

/**
 * Connects a PostgreSQL client on the application's {@link DataSource}. Loaded only when its database is PostgreSQL
 * and baton-postgres is on the class path.
 */
final class PostgresDataSourceClients {
  private PostgresDataSourceClients() {}

  static LockClient connect(BatonProperties properties, DataSource dataSource) {
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
}
