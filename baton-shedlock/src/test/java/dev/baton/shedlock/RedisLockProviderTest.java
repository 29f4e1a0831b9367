package dev.baton.shedlock;

import dev.baton.LockClient;
import dev.baton.redis.RedisLockClient;
import dev.baton.testkit.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ShedLock's provider test suite, and the checks it lacks, on a real Redis server. */
class RedisLockProviderTest extends BatonLockProviderContract {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Override
  protected LockClient connect() {
    return RedisLockClient.connect(redis.uri());
  }
}
