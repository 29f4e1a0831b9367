package dev.baton.spring.integration;

import dev.baton.LockClient;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.zookeeper.ZooKeeperLockClient;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock registry on a real ZooKeeper server. */
class ZooKeeperLockRegistryTest extends BatonLockRegistryContract {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();

  @Override
  protected LockClient connect() {
    return ZooKeeperLockClient.connect(zooKeeper.connectString());
  }
}
