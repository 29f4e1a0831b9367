package dev.baton.redis;

import dev.baton.testkit.LockClientSoak;
import dev.baton.testkit.RedisServerExtension;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Thousands of per-order keys on one Redis server: no key, no subscribed channel left behind, by a released key or by
 * a crashed client.
 */
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

  /**
   * The keys by kind (the word after {@code baton:}: lock, fence, writers, yield), so that a failure says which kind
   * stayed, and the channels with a subscriber.
   */
  @Override
  protected Map<String, Long> storeInventory() {
    Map<String, Long> inventory = new TreeMap<>(((List<?>) redis.command("KEYS", "*")).stream()
        .map(key -> "keys " + (((String) key).startsWith("baton:") ? ((String) key).split(":", 3)[1] : "other"))
        .collect(Collectors.groupingBy(kind -> kind, Collectors.counting())));
    inventory.put("channels", (long) ((List<?>) redis.command("PUBSUB", "CHANNELS", "*")).size());
    return inventory;
  }

  /** A released key's fence counter outlives its last token by one ttl (docs/redis.md's bound). */
  @Override
  protected Duration leftoverBound() {
    return TTL;
  }

  /**
   * A crashed client's lock hashes and entries expire one ttl after their last renewal, its subscriptions end with its
   * connection, and its waiting writers' records must expire within that ttl too, however long what they waited for is
   * held (docs/redis.md's bound).
   */
  @Override
  protected Optional<Duration> crashedClientBound() {
    return Optional.of(TTL);
  }
}
