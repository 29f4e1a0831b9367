package dev.baton.connect;

import dev.baton.LockClient;
import dev.baton.postgres.PostgresLockClient;

/** Connects to PostgreSQL; loaded only when the URI names PostgreSQL, so baton-postgres may be absent otherwise. */
final class PostgresConnector {
  private PostgresConnector() {}

  static LockClient connect(ConnectionSettings settings) {
    if (settings.namespace().isPresent()) {
      throw new IllegalArgumentException("A namespace is not available on PostgreSQL, where locks of one table are one"
          + " namespace: give each its own table with PostgresLockClient.builder().table(name), or leave it out.");
    }
    PostgresLockClient.Builder builder = PostgresLockClient.builder().address(settings.uri().value())
        .defaultOptions(settings.defaultOptions());
    settings.commandTimeout().ifPresent(builder::commandTimeout);
    settings.password().ifPresent(password -> builder.user(settings.user().orElseThrow(() -> new IllegalArgumentException(
        "A PostgreSQL password needs a user: give both.")), password));
    return builder.connect();
  }
}
