package dev.baton.testkit;

import dev.baton.servers.RedisSentinelSet;

/**
 * Runs a {@link RedisSentinelSet} for the tests of one class: started before the first test, stopped after the last.
 * Register it in a static field, so that it lives as long as the class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisSentinelExtension redis = new RedisSentinelExtension();
 * }</pre>
 *
 * <p>Nested test classes share the outer class's set-up. A test that fails the master over leaves the set-up with
 * the roles swapped, settled again.
 */
public final class RedisSentinelExtension extends ClassScopedServer {
  private final RedisSentinelSet sentinels = new RedisSentinelSet();

  @Override
  void startServer() {
    sentinels.start();
  }

  @Override
  void stopServer() {
    sentinels.close();
  }

  /** The set-up, e.g. to {@link RedisSentinelSet#failover()} it. */
  public RedisSentinelSet sentinels() {
    return sentinels;
  }

  /** The address clients use: {@code redis-sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3#baton}. */
  public String uri() {
    return sentinels.uri();
  }

  /** Runs one command against the current master; see {@link dev.baton.servers.RedisServer#command}. */
  public Object command(String... args) {
    return sentinels.master().command(args);
  }
}
