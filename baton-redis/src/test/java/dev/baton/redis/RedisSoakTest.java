package dev.baton.redis;

import dev.baton.testkit.LockClientFactory;
import dev.baton.testkit.LockClientSoak;
import dev.baton.testkit.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Thousands of per-order keys on one Redis server: no key, no subscribed channel left behind. */
class RedisSoakTest extends LockClientSoak {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Override
  protected Class<? extends LockClientFactory> factoryClass() {
    return RedisClientFactory.class;
  }

  @Override
  protected String target() {
    return redis.uri();
  }

  @Override
  protected Map<String, Long> storeInventory() {
    return Map.of(
        "keys", (Long) redis.command("DBSIZE"),
        "channels", (long) ((List<?>) redis.command("PUBSUB", "CHANNELS", "*")).size());
  }

  /** A released key's fence counter outlives its last token by one ttl (the README's bound). */
  @Override
  protected Duration leftoverBound() {
    return TTL;
  }
}
