package dev.baton.zookeeper;

import dev.baton.testkit.EmbeddedZooKeeperExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract, against the fair lock on a standalone server. */
class FairLockContractTest extends ZooKeeperContract {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  @Override
  protected String target() {
    return zookeeper.connectString();
  }
}
