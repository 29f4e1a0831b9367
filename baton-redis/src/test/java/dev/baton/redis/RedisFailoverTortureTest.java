package dev.baton.redis;

import dev.baton.servers.RedisReplicatedPair;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The short torture through Redis failovers: a primary with an asynchronous replica, the primary killed and
 * the replica promoted, again and again. Replication can lose a lock, so mutual exclusion is not promised;
 * fencing is: tokens, floored at the server's clock, keep growing on the promoted replica, and the fenced
 * register loses no update.
 */
class RedisFailoverTortureTest extends RedisReplicatedTorture {
  private static final RedisReplicatedPair redis = new RedisReplicatedPair();

  @BeforeAll
  static void startRedis() {
    redis.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  RedisFailoverTortureTest() {
    super("redis-failover", "", false);
  }

  @Override
  String uri(String parameters) {
    return redis.uri() + parameters;
  }

  @Override
  protected ServerFaults serverFaults() {
    return TortureServers.of(redis);
  }
}
