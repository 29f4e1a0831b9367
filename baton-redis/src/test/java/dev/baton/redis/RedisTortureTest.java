package dev.baton.redis;

import dev.baton.testkit.RedisServerExtension;
import dev.baton.testkit.torture.ShortTorture;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture, against a real Redis server. */
class RedisTortureTest extends ShortTorture {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  RedisTortureTest() {
    super(RedisClientFactory.class, "redis", pauseAndKill());
  }

  @Override
  protected String target() {
    return redis.uri();
  }
}
