package dev.baton.redis;

/**
 * {@link RedisSentinelTorture} with replica acknowledgement ({@code min-replicas=1}): every grant and renewal counts
 * only once the replica has it, so a failover promotes a replica that has every holding, and mutual exclusion is
 * checked too.
 */
class RedisSentinelAcksTortureTest extends RedisSentinelTorture {
  RedisSentinelAcksTortureTest() {
    super("redis-sentinel-acks", "?min-replicas=1", true);
  }
}
