package dev.baton.redis;

/**
 * {@link RedisClusterTorture} as most deployments run it: replication is asynchronous, as in
 * {@link RedisFailoverTortureTest}, so mutual exclusion is not promised (a grant the replica had not received is lost
 * with the master); fencing is: tokens keep growing on the promoted replica, and the fenced register loses no update.
 */
class RedisClusterFailoverTortureTest extends RedisClusterTorture {
  RedisClusterFailoverTortureTest() {
    super("redis-cluster-failover", "", false);
  }
}
