package dev.baton.spring.integration;

import dev.baton.LockClient;
import dev.baton.redis.RedisLockClient;
import dev.baton.testkit.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock registry on a real Redis server. */
class RedisLockRegistryTest extends BatonLockRegistryContract {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Override
  protected LockClient connect() {
    return RedisLockClient.connect(redis.uri());
  }
}
