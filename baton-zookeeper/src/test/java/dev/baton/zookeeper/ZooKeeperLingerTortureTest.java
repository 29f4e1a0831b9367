package dev.baton.zookeeper;

import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Fault;
import dev.baton.torture.Primitive;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The short torture of lingering locks (exclusion, and waiters of other processes served) on an in-process
 * ZooKeeper server (1 s sessions), restarted now and then.
 */
class ZooKeeperLingerTortureTest extends ShortTorture {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  ZooKeeperLingerTortureTest() {
    super(ZooKeeperClientFactory.class, "zookeeper-linger", pauseKillAnd(Fault.SERVER_RESTART), Primitive.LINGER);
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
