package dev.baton.redis;

import dev.baton.testkit.RedisServerExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Primitive;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture of the semaphore, against a real Redis server. */
class RedisSemaphoreTortureTest extends ShortTorture {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  RedisSemaphoreTortureTest() {
    super(RedisClientFactory.class, "redis-semaphore", pauseAndKill(), Primitive.SEMAPHORE);
  }

  @Override
  protected String target() {
    return redis.uri();
  }
}
