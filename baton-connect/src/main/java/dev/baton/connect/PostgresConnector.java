package dev.baton.connect;

import dev.baton.LockClient;
import dev.baton.postgres.PostgresLockClient;

/** Connects to PostgreSQL; loaded only when the URI names PostgreSQL, so baton-postgres may be absent otherwise. */
final class PostgresConnector {
  private PostgresConnector() {}

  static LockClient connect(ConnectionSettings settings) {
    PostgresLockClient.Builder builder = PostgresLockClient.builder().address(settings.uri().value())
        .defaultOptions(settings.defaultOptions());
    settings.namespace().ifPresent(builder::namespace);
    settings.commandTimeout().ifPresent(builder::commandTimeout);
    settings.password().ifPresent(password -> builder.credentials(settings.user().orElseThrow(() -> new IllegalArgumentException(
        "A PostgreSQL password needs a user: give both.")), password));
    return builder.connect();
  }
}
