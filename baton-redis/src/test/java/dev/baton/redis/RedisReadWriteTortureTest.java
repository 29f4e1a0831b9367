package dev.baton.redis;

import dev.baton.testkit.RedisServerExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Primitive;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture of the read-write lock, against a real Redis server. */
class RedisReadWriteTortureTest extends ShortTorture {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  RedisReadWriteTortureTest() {
    super(RedisClientFactory.class, "redis-rw", pauseAndKill(), Primitive.READ_WRITE);
  }

  @Override
  protected String target() {
    return redis.uri();
  }
}
