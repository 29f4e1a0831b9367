package dev.baton.zookeeper;

import dev.baton.testkit.TortureServers;
import dev.baton.testkit.ZooKeeperEnsembleExtension;
import dev.baton.testkit.torture.Fault;
import dev.baton.testkit.torture.Primitive;
import dev.baton.testkit.torture.ServerFaults;
import dev.baton.testkit.torture.ShortTorture;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture of leader election on a three-server ensemble whose leader is killed now and then. */
class ZooKeeperLeadershipTortureTest extends ShortTorture {
  @RegisterExtension
  static final ZooKeeperEnsembleExtension zookeeper = new ZooKeeperEnsembleExtension();

  ZooKeeperLeadershipTortureTest() {
    super(ZooKeeperClientFactory.class, "zookeeper-leader", pauseKillAnd(Fault.LEADER_KILL), Primitive.LEADERSHIP);
  }

  @Override
  protected String target() {
    return zookeeper.connectString();
  }

  @Override
  protected ServerFaults serverFaults() {
    return TortureServers.of(zookeeper.ensemble());
  }
}
