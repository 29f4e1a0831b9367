package dev.baton.reactor;

import dev.baton.LockClient;
import dev.baton.redis.RedisLockClient;
import dev.baton.testkit.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ReactiveLockContract} on a Redis server. */
class RedisReactiveLocksTest extends ReactiveLockContract {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Override
  LockClient connect() {
    return RedisLockClient.connect(redis.uri());
  }
}
