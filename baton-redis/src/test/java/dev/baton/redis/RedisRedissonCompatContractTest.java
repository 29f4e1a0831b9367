package dev.baton.redis;

import dev.baton.testkit.LockClientContract;
import dev.baton.testkit.RedisServerExtension;
import dev.baton.torture.LockClientFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The backend-independent contract in Redisson's layout (compat=redisson): everything Baton promises its own clients
 * holds there too, but for read locks and semaphores, which that mode refuses.
 */
class RedisRedissonCompatContractTest extends LockClientContract {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Override
  protected Class<? extends LockClientFactory> factoryClass() {
    return RedissonCompatClientFactory.class;
  }

  @Override
  protected String target() {
    return redis.uri();
  }

  /** A Redisson holder could not hear a request: compat=redisson refuses them. */
  @Override
  protected boolean deliversReleaseRequests() {
    return false;
  }

  @Override
  protected boolean takesSharedEntries() {
    return false;
  }

  @Override
  protected void removeEntryBehindOurBack(String key) {
    redis.command("DEL", key);
  }

  @Override
  protected int entriesAtStore(String key) {
    return ((Long) redis.command("EXISTS", key)).intValue();
  }
}
