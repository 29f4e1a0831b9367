package dev.baton.virtualthreads;

import dev.baton.testkit.EmbeddedZooKeeperExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The virtual-thread contract on a ZooKeeper server the test kit starts in this JVM. */
class ZooKeeperVirtualThreadTest extends VirtualThreadContract {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();

  @Override
  String uri() {
    return "zookeeper://" + zooKeeper.connectString();
  }
}
