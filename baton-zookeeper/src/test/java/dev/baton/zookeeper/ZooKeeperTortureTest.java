package dev.baton.zookeeper;

import dev.baton.testkit.LockClientFactory;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.torture.ShortTorture;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture, against the fair lock on an in-process ZooKeeper server (1 s sessions). */
class ZooKeeperTortureTest extends ShortTorture {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  @Override
  protected Class<? extends LockClientFactory> factory() {
    return ZooKeeperClientFactory.class;
  }

  @Override
  protected String target() {
    return zookeeper.connectString();
  }

  @Override
  protected String name() {
    return "zookeeper";
  }
}
