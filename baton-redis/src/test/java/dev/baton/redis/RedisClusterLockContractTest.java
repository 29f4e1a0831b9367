package dev.baton.redis;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.spi.ClientFactory;
import dev.baton.testkit.LockClientContract;
import dev.baton.testkit.RedisClusterExtension;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The backend-independent contract, against a Redis cluster of three masters with a replica each. */
class RedisClusterLockContractTest extends LockClientContract {
  @RegisterExtension
  static final RedisClusterExtension redis = new RedisClusterExtension();

  private static final RedisKeys KEYS = RedisKeys.tagged(RedisLockClient.DEFAULT_NAMESPACE);
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final Map<LockClient, RedisLink> crashable = new ConcurrentHashMap<>();

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
    redis.commandOn(KEYS.lock(key), "DEL", KEYS.lock(key));
  }

  @Override
  protected int entriesAtStore(String key) {
    return ((Long) redis.commandOn(KEYS.lock(key), "EXISTS", KEYS.lock(key))).intValue();
  }

  /**
   * A client whose {@link #crash} ends its connections to every node, so that it sends nothing more: a proxy in front
   * of the seeds would not do, as a cluster client connects to the nodes the cluster names, not through the seeds.
   */
  @Override
  protected LockClient newCrashableClient() {
    RedisLink link = RedisLink.connectCluster(RedisTarget.parse(redis.uri()).seedUris(null, null), TIMEOUT, TIMEOUT,
        ReplicaAcks.NONE);
    LockClient client = ClientFactory.newClient(RedisBackend.connect(link, KEYS, RedisLockClient.DEFAULT_YIELD_TIME),
        LockOptions.defaults());
    crashable.put(client, link);
    return client;
  }

  @Override
  protected void crash(LockClient client) {
    RedisLink link = crashable.get(client);
    if (link == null) {
      throw new IllegalArgumentException(client + " was not made by newCrashableClient()");
    }
    link.close();
  }

  @AfterEach
  void closeCrashableClients() {
    crashable.keySet().forEach(LockClient::close);
    crashable.clear();
  }
}
