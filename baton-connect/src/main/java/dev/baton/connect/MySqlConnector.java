package dev.baton.connect;

import dev.baton.LockClient;
import dev.baton.mysql.MySqlLockClient;

/**
 * Connects to MySQL or MariaDB; loaded only when the URI names one of them, so baton-mysql may be absent otherwise.
 */
final class MySqlConnector {
  private MySqlConnector() {}

  static LockClient connect(ConnectionSettings settings) {
    MySqlLockClient.Builder builder = MySqlLockClient.builder().address(settings.uri().value())
        .defaultOptions(settings.defaultOptions());
    settings.namespace().ifPresent(builder::namespace);
    settings.connectTimeout().ifPresent(builder::connectTimeout);
    settings.commandTimeout().ifPresent(builder::commandTimeout);
    settings.password().ifPresent(password -> builder.credentials(settings.user().orElseThrow(() ->
        new IllegalArgumentException("A MySQL password needs a user: give both.")), password));
    return builder.connect();
  }
}
