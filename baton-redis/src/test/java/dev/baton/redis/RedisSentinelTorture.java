package dev.baton.redis;

import dev.baton.testkit.RedisSentinelSet;
import dev.baton.testkit.torture.Fault;
import dev.baton.testkit.torture.ServerFaults;
import dev.baton.testkit.torture.ShortTorture;
import java.util.EnumSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The short torture through Sentinel failovers: the workers lock through {@code redis-sentinel://}, and the master is
 * killed again and again, for the sentinels to judge it down and promote its replica. A subclass says which URI
 * parameters the workers connect with, and whether mutual exclusion is promised under that.
 */
abstract class RedisSentinelTorture extends ShortTorture {
  private static final RedisSentinelSet redis = new RedisSentinelSet();

  private final String parameters;
  private final boolean exclusive;

  @BeforeAll
  static void startRedis() {
    redis.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  /**
   * @param name the report's folder
   * @param parameters the URI's query, {@code ?...}, or empty
   * @param exclusive whether mutual exclusion is promised
   */
  RedisSentinelTorture(String name, String parameters, boolean exclusive) {
    super(RedisClientFactory.class, name, EnumSet.of(Fault.FAILOVER, Fault.PAUSE));
    this.parameters = parameters;
    this.exclusive = exclusive;
  }

  /** The sentinels' URI, with the parameters before its {@code #master}. */
  @Override
  protected String target() {
    String uri = redis.uri();
    int fragment = uri.indexOf('#');
    return uri.substring(0, fragment) + parameters + uri.substring(fragment);
  }

  @Override
  protected ServerFaults serverFaults() {
    return redis;
  }

  @Override
  protected boolean mutualExclusionExpected() {
    return exclusive;
  }
}
