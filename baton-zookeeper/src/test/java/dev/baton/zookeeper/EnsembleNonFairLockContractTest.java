package dev.baton.zookeeper;

import dev.baton.LockOptions;
import dev.baton.testkit.ZooKeeperEnsembleExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract, against the non-fair lock on a three-server ensemble. */
class EnsembleNonFairLockContractTest extends ZooKeeperContract {
  @RegisterExtension
  static final ZooKeeperEnsembleExtension ensemble = new ZooKeeperEnsembleExtension();

  @Override
  protected String target() {
    return ensemble.connectString();
  }

  @Override
  protected LockOptions baseOptions() {
    return ZooKeeperClientFactory.NonFair.OPTIONS;
  }
}
