package dev.baton.redis;

import dev.baton.testkit.RedisServerExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Primitive;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture of the leadership, against a real Redis server. */
class RedisLeadershipTortureTest extends ShortTorture {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  RedisLeadershipTortureTest() {
    super(RedisClientFactory.class, "redis-leader", pauseAndKill(), Primitive.LEADERSHIP);
  }

  @Override
  protected String target() {
    return redis.uri();
  }
}
