package dev.baton.testkit;

import dev.baton.servers.RedisClusterSet;

/**
 * Runs a {@link RedisClusterSet} for the tests of one class: started before the first test, stopped after the last.
 * Register it in a static field, so that it lives as long as the class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisClusterExtension redis = new RedisClusterExtension();
 * }</pre>
 *
 * <p>Nested test classes share the outer class's cluster. A test that fails a master over leaves the cluster with
 * the roles swapped, settled again.
 */
public final class RedisClusterExtension extends ClassScopedServer {
  private final RedisClusterSet cluster = new RedisClusterSet();

  @Override
  void startServer() {
    cluster.start();
  }

  @Override
  void stopServer() {
    cluster.close();
  }

  /** The cluster, e.g. to {@link RedisClusterSet#failover()} it. */
  public RedisClusterSet cluster() {
    return cluster;
  }

  /** The address clients use: {@code redis-cluster://127.0.0.1:P1,...} with every node as a seed. */
  public String uri() {
    return cluster.uri();
  }

  /** Runs one command about {@code key} on the master that serves its slot; see {@link dev.baton.servers.RedisServer#command}. */
  public Object commandOn(String key, String... args) {
    return cluster.masterOf(key).command(args);
  }
}
