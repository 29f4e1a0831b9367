package dev.baton.redis;

import dev.baton.testkit.LockClientContract;
import dev.baton.testkit.RedisServerExtension;
import dev.baton.torture.LockClientFactory;
import java.util.List;
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

  @Override
  protected boolean listensForReleaseRequestsAtStore(String clientId) {
    return (Long) ((List<?>) redis.command("PUBSUB", "NUMSUB", "baton:release:" + clientId)).get(1) > 0;
  }
}
