package dev.baton.redis;

import dev.baton.testkit.RedisServerExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Primitive;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture of multi-locks over random overlapping sets of keys, against a real Redis server. */
class RedisMultiLockTortureTest extends ShortTorture {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  RedisMultiLockTortureTest() {
    super(RedisClientFactory.class, "redis-multi", pauseAndKill(), Primitive.MULTI_LOCK);
  }

  @Override
  protected String target() {
    return redis.uri();
  }
}
