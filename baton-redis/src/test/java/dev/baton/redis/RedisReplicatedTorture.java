package dev.baton.redis;

import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Fault;
import java.util.EnumSet;

/**
 * The short torture through failovers of a replicated Redis (pause and failover faults): a subclass starts the
 * set-up, says how to reach it with the URI parameters of the torture (replica acknowledgement or none), and whether
 * mutual exclusion is promised under them.
 */
abstract class RedisReplicatedTorture extends ShortTorture {
  private final String parameters;
  private final boolean exclusive;

  /**
   * @param name the report's folder
   * @param parameters the URI's query, {@code ?...}, or empty
   * @param exclusive whether mutual exclusion is promised
   */
  RedisReplicatedTorture(String name, String parameters, boolean exclusive) {
    super(RedisClientFactory.class, name, EnumSet.of(Fault.FAILOVER, Fault.PAUSE));
    this.parameters = parameters;
    this.exclusive = exclusive;
  }

  /** The set-up's URI with {@code parameters}, a query or empty, where its form takes one. */
  abstract String uri(String parameters);

  @Override
  protected String target() {
    return uri(parameters);
  }

  @Override
  protected boolean mutualExclusionExpected() {
    return exclusive;
  }
}
