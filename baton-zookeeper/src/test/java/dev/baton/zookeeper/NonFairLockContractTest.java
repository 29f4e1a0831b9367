package dev.baton.zookeeper;

import dev.baton.LockOptions;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract, against the non-fair lock on a standalone server. */
class NonFairLockContractTest extends ZooKeeperContract {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  @Override
  protected String target() {
    return zookeeper.connectString();
  }

  @Override
  protected LockOptions baseOptions() {
    return ZooKeeperClientFactory.NonFair.OPTIONS;
  }
}
