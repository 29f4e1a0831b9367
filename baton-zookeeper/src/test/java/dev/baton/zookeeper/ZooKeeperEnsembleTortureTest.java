package dev.baton.zookeeper;

import dev.baton.testkit.LockClientFactory;
import dev.baton.testkit.ZooKeeperEnsembleExtension;
import dev.baton.testkit.TortureServers;
import dev.baton.testkit.torture.Fault;
import dev.baton.testkit.torture.ServerFaults;
import dev.baton.testkit.torture.ShortTorture;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture on a three-server ensemble whose leader is killed now and then. */
class ZooKeeperEnsembleTortureTest extends ShortTorture {
  @RegisterExtension
  static final ZooKeeperEnsembleExtension zookeeper = new ZooKeeperEnsembleExtension();

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
    return "zookeeper-ensemble";
  }

  @Override
  protected Set<Fault> faults() {
    return EnumSet.of(Fault.PAUSE, Fault.KILL, Fault.LEADER_KILL);
  }

  @Override
  protected ServerFaults serverFaults() {
    return TortureServers.of(zookeeper.ensemble());
  }
}
