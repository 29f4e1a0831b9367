package dev.baton.redis;

import dev.baton.spi.LockBackend;
import dev.baton.testkit.QueueRuleContract;
import dev.baton.testkit.RedisServerExtension;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Shared entries, permits and their meeting with exclusive ones, at the SPI, against a real Redis server. */
class RedisQueueRuleTest extends QueueRuleContract {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Override
  protected LockBackend newBackend() {
    return RedisBackend.connect(RedisURI.create(redis.uri()), RedisLockClient.DEFAULT_NAMESPACE, Duration.ofSeconds(2),
        Duration.ofSeconds(2), RedisLockClient.DEFAULT_YIELD_TIME, ReplicaAcks.NONE);
  }
}
