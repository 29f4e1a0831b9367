package dev.baton.zookeeper;

import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Fault;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture, against the fair lock on an in-process ZooKeeper server (1 s sessions), restarted now and then. */
class ZooKeeperTortureTest extends ShortTorture {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  ZooKeeperTortureTest() {
    super(ZooKeeperClientFactory.class, "zookeeper", pauseKillAnd(Fault.SERVER_RESTART));
  }

  @Override
  protected String target() {
    return zookeeper.connectString();
  }

  @Override
  protected ServerFaults serverFaults() {
    return TortureServers.of(zookeeper.server());
  }
}
