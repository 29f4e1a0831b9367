package dev.baton.reactor;

import dev.baton.LockClient;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.zookeeper.ZooKeeperLockClient;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ReactiveLockContract} on a ZooKeeper server. */
class ZooKeeperReactiveLocksTest extends ReactiveLockContract {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();

  @Override
  LockClient connect() {
    return ZooKeeperLockClient.connect(zooKeeper.connectString());
  }
}
