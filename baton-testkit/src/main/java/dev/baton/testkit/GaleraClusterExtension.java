package dev.baton.testkit;

import dev.baton.servers.GaleraCluster;

/**
 * Runs a {@link GaleraCluster} of three MariaDB nodes for the tests of one class: started before the first test,
 * stopped (and every node's data deleted) after the last. Register it in a static field, so that it lives as long as
 * the class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final GaleraClusterExtension galera = new GaleraClusterExtension();
 * }</pre>
 *
 * <p>Nested test classes share the outer class's cluster.
 */
public final class GaleraClusterExtension extends ClassScopedServer {
  private final GaleraCluster cluster = new GaleraCluster();

  @Override
  void startServer() {
    cluster.start();
  }

  @Override
  void stopServer() {
    cluster.stop();
  }

  /** The cluster, e.g. to {@link GaleraCluster#kill(int) kill} a node or read one's log. */
  public GaleraCluster cluster() {
    return cluster;
  }

  /** The address of node {@code node} (from 0) with the test user and password. */
  public String uri(int node) {
    return cluster.uri(node);
  }
}
