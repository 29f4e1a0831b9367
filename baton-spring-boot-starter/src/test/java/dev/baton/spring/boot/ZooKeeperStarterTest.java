package dev.baton.spring.boot;

import dev.baton.testkit.EmbeddedZooKeeperExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The starter on a real ZooKeeper server. */
class ZooKeeperStarterTest extends StarterContract {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();

  @Override
  protected String backend() {
    return "zookeeper://" + zooKeeper.connectString();
  }

  @Override
  protected String backendName() {
    return "zookeeper";
  }
}
