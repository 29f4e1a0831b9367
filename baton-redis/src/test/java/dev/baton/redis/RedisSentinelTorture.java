package dev.baton.redis;

import dev.baton.servers.RedisSentinelSet;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The short torture through Sentinel failovers: the workers lock through {@code redis-sentinel://}, and the master is
 * killed again and again, for the sentinels to judge it down and promote its replica. A subclass says which URI
 * parameters the workers connect with, and whether mutual exclusion is promised under that.
 */
abstract class RedisSentinelTorture extends RedisReplicatedTorture {
  private static final RedisSentinelSet redis = new RedisSentinelSet();


  @BeforeAll
  static void startRedis() {
    redis.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  RedisSentinelTorture(String name, String parameters, boolean exclusive) {
    super(name, parameters, exclusive);
  }

  /** The sentinels' URI, with the parameters before its {@code #master}. */
  @Override
  String uri(String parameters) {
    String uri = redis.uri();
    int fragment = uri.indexOf('#');
    return uri.substring(0, fragment) + parameters + uri.substring(fragment);
  }

  @Override
  protected ServerFaults serverFaults() {
    return TortureServers.of(redis);
  }

}
