package dev.baton.zookeeper;

import dev.baton.testkit.LockClientFactory;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.TortureServers;
import dev.baton.testkit.torture.Fault;
import dev.baton.testkit.torture.ServerFaults;
import dev.baton.testkit.torture.ShortTorture;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture, against the fair lock on an in-process ZooKeeper server (1 s sessions), restarted now and then. */
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

  @Override
  protected Set<Fault> faults() {
    return EnumSet.of(Fault.PAUSE, Fault.KILL, Fault.SERVER_RESTART);
  }

  @Override
  protected ServerFaults serverFaults() {
    return TortureServers.of(zookeeper.server());
  }
}
