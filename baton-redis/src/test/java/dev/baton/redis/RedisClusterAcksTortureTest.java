package dev.baton.redis;

/**
 * {@link RedisClusterTorture} with replica acknowledgement ({@code min-replicas=1}): every grant and renewal counts
 * only once the master's replica has it, so a failover promotes a replica that has every holding, and mutual exclusion
 * is checked too.
 */
class RedisClusterAcksTortureTest extends RedisClusterTorture {
  RedisClusterAcksTortureTest() {
    super("redis-cluster-acks", "?min-replicas=1", true);
  }
}
