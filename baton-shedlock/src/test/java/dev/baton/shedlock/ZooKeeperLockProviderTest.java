package dev.baton.shedlock;

import dev.baton.LockClient;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.zookeeper.ZooKeeperLockClient;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ShedLock's provider test suite, and the checks it lacks, on a real ZooKeeper server. */
class ZooKeeperLockProviderTest extends BatonLockProviderContract {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();

  @Override
  protected LockClient connect() {
    return ZooKeeperLockClient.connect(zooKeeper.connectString());
  }
}
