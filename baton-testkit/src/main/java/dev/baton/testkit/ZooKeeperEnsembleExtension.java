package dev.baton.testkit;

import dev.baton.embedded.ZooKeeperEnsemble;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

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
public final class ZooKeeperEnsembleExtension implements BeforeAllCallback, AfterAllCallback {
  private final ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble();
  private volatile String startedBy;

  @Override
  public void beforeAll(ExtensionContext context) {
    if (startedBy == null) {
      ensemble.start();
      startedBy = context.getUniqueId();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (context.getUniqueId().equals(startedBy)) {
      startedBy = null;
      ensemble.close();
    }
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
