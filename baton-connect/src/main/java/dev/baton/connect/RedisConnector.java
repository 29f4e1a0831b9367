package dev.baton.connect;

import dev.baton.LockClient;
import dev.baton.redis.RedisLockClient;

/** Connects to Redis; loaded only when the URI names Redis, so baton-redis may be absent otherwise. */
final class RedisConnector {
  private RedisConnector() {}

  static LockClient connect(ConnectionSettings settings) {
    RedisLockClient.Builder builder = RedisLockClient.builder().uri(settings.uri().value())
        .defaultOptions(settings.defaultOptions());
    settings.namespace().ifPresent(namespace -> builder.namespace(namespace + ":"));
    settings.connectTimeout().ifPresent(builder::connectTimeout);
    settings.commandTimeout().ifPresent(builder::commandTimeout);
    settings.password().ifPresent(password -> builder.credentials(settings.user().orElse(null), password));
    settings.uri().compat().ifPresent(compat -> builder.compat(RedisLockClient.Compat.REDISSON));
    return builder.connect();
  }
}
