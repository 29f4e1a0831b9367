package dev.baton.redis;

import dev.baton.testkit.RedisServerExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Primitive;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The short torture of lingering locks (exclusion, and waiters of other processes served), against a real Redis
 * server.
 */
class RedisLingerTortureTest extends ShortTorture {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  RedisLingerTortureTest() {
    super(RedisClientFactory.class, "redis-linger", pauseAndKill(), Primitive.LINGER);
  }

  @Override
  protected String target() {
    return redis.uri();
  }
}
