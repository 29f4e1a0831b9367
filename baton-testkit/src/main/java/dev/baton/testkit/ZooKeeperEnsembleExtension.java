package dev.baton.testkit;

import dev.baton.embedded.ZooKeeperEnsemble;

/**
 * Runs a {@link ZooKeeperEnsemble} for the tests of one class: started before the first test (returning once all
 * three peers serve), closed after the last. Register it in a static field, so that it lives as long as the
 * class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final ZooKeeperEnsembleExtension ensemble = new ZooKeeperEnsembleExtension();
 * }</pre>
 *
 * <p>Nested test classes share the outer class's ensemble. A test that stops peers should start them again (or
 * the next test should not rely on all three).
 */
public final class ZooKeeperEnsembleExtension extends ClassScopedServer {
  private final ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble();

  @Override
  void startServer() {
    ensemble.start();
  }

  @Override
  void stopServer() {
    ensemble.close();
  }

  /** The ensemble, e.g. to {@link ZooKeeperEnsemble#killLeader()} and {@link ZooKeeperEnsemble#awaitLeader await} a new one. */
  public ZooKeeperEnsemble ensemble() {
    return ensemble;
  }

  /** Every peer's address for a ZooKeeper client: {@code 127.0.0.1:P0,127.0.0.1:P1,127.0.0.1:P2}. */
  public String connectString() {
    return ensemble.connectString();
  }
}
