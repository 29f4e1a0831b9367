package dev.baton.redis;

/**
 * {@link RedisSentinelTorture} as most deployments run it: replication is asynchronous, so mutual exclusion is not
 * promised (a grant the replica had not received is lost with the master); fencing is.
 */
class RedisSentinelFailoverTortureTest extends RedisSentinelTorture {
  RedisSentinelFailoverTortureTest() {
    super("redis-sentinel-failover", "", false);
  }
}
