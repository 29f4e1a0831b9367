package dev.baton.testkit;

import dev.baton.servers.EtcdCluster;

/**
 * Runs an {@link EtcdCluster} for the tests of one class: started before the first test (returning once all three
 * members serve under one leader), closed after the last. Register it in a static field, so that it lives as long
 * as the class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final EtcdClusterExtension etcd = new EtcdClusterExtension();
 * }</pre>
 *
 * <p>Nested test classes share the outer class's cluster. A test that stops or kills members should start them
 * again (or the next test should not rely on all three).
 */
public final class EtcdClusterExtension extends ClassScopedServer {
  private final EtcdCluster cluster = new EtcdCluster();

  @Override
  void startServer() {
    cluster.start();
  }

  @Override
  void stopServer() {
    cluster.close();
  }

  /** The cluster, e.g. to {@link EtcdCluster#killLeader()} and {@link EtcdCluster#awaitLeader await} a new one. */
  public EtcdCluster cluster() {
    return cluster;
  }

  /** Every member's address for an etcd client: {@code http://127.0.0.1:C0,http://127.0.0.1:C1,http://127.0.0.1:C2}. */
  public String endpoints() {
    return cluster.endpoints();
  }
}
