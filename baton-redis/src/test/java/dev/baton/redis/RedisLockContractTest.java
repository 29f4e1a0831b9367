package dev.baton.redis;

import dev.baton.testkit.LockClientContract;
import dev.baton.testkit.RedisServerExtension;
import dev.baton.torture.LockClientFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The backend-independent contract, against a real Redis server. */
class RedisLockContractTest extends LockClientContract {
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
  protected void removeEntryBehindOurBack(String key) {
    redis.command("DEL", "baton:lock:" + key);
  }

  @Override
  protected int entriesAtStore(String key) {
    return ((Long) redis.command("EXISTS", "baton:lock:" + key)).intValue();
  }
}
