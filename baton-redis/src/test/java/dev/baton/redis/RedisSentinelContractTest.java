package dev.baton.redis;

import dev.baton.LockClient;
import dev.baton.servers.ProxiedTarget;
import dev.baton.testkit.LockClientContract;
import dev.baton.testkit.RedisSentinelExtension;
import dev.baton.torture.LockClientFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The backend-independent contract, against the master of a Redis Sentinel set-up, found through its sentinels. */
class RedisSentinelContractTest extends LockClientContract {
  @RegisterExtension
  static final RedisSentinelExtension redis = new RedisSentinelExtension();

  private final Map<LockClient, ProxiedTarget> crashable = new ConcurrentHashMap<>();

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

  /**
   * A client of the master through a proxy that {@link #crash} cuts: a proxy in front of the sentinels would cut
   * only the client's questions to them, not its connections to the master they name.
   */
  @Override
  protected LockClient newCrashableClient() {
    ProxiedTarget proxied = ProxiedTarget.of(redis.sentinels().master().uri());
    LockClient client = RedisLockClient.connect(proxied.target());
    crashable.put(client, proxied);
    return client;
  }

  @Override
  protected void crash(LockClient client) {
    ProxiedTarget proxied = crashable.get(client);
    if (proxied == null) {
      throw new IllegalArgumentException(client + " was not made by newCrashableClient()");
    }
    proxied.cut();
  }

  @AfterEach
  void closeCrashableClients() {
    crashable.forEach((client, proxied) -> {
      client.close();
      proxied.close();
    });
    crashable.clear();
  }
}
