package dev.baton.redis;

import dev.baton.servers.RedisClusterSet;
import dev.baton.torture.ServerFaults;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The short torture through Redis Cluster failovers: the master that serves the torture lock's slot killed and its
 * replica promoted, again and again, while the workers lock through {@code redis-cluster://}. A subclass says which
 * URI parameters the workers connect with, and whether mutual exclusion is promised under that.
 */
abstract class RedisClusterTorture extends RedisReplicatedTorture {
  /** The key every torture worker contends for (ShortTorture's). */
  private static final String TORTURE_KEY = "torture";
  private static final RedisClusterSet cluster = new RedisClusterSet();


  @BeforeAll
  static void startCluster() {
    cluster.start();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  RedisClusterTorture(String name, String parameters, boolean exclusive) {
    super(name, parameters, exclusive);
  }

  @Override
  String uri(String parameters) {
    return cluster.uri() + parameters;
  }

  /** Fails over the master of the torture lock's slot, not slot 0's, so that every failover hits the lock. */
  @Override
  protected ServerFaults serverFaults() {
    int slot = cluster.slotOf(RedisKeys.tagged(RedisLockClient.DEFAULT_NAMESPACE).lock(TORTURE_KEY));
    return new ServerFaults() {
      @Override
      public void failover() {
        cluster.failover(slot);
      }

      @Override
      public String toString() {
        return "the master of slot " + slot + " in " + cluster;
      }
    };
  }

}
