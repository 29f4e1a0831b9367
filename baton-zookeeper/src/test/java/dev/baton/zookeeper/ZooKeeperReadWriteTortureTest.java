package dev.baton.zookeeper;

import dev.baton.testkit.ZooKeeperEnsembleExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Fault;
import dev.baton.torture.Primitive;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture of the read-write lock on a three-server ensemble whose leader is killed now and then. */
class ZooKeeperReadWriteTortureTest extends ShortTorture {
  @RegisterExtension
  static final ZooKeeperEnsembleExtension zookeeper = new ZooKeeperEnsembleExtension();

  ZooKeeperReadWriteTortureTest() {
    super(ZooKeeperClientFactory.class, "zookeeper-rw", pauseKillAnd(Fault.LEADER_KILL), Primitive.READ_WRITE);
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
