package dev.baton.zookeeper;

import dev.baton.testkit.ZooKeeperEnsembleExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract, against the fair lock on a three-server ensemble. */
class EnsembleFairLockContractTest extends ZooKeeperContract {
  @RegisterExtension
  static final ZooKeeperEnsembleExtension ensemble = new ZooKeeperEnsembleExtension();

  @Override
  protected String target() {
    return ensemble.connectString();
  }
}
