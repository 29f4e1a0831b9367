package dev.baton.etcd;

import dev.baton.testkit.LockClientFactory;
import dev.baton.testkit.EtcdClusterExtension;
import dev.baton.testkit.TortureServers;
import dev.baton.testkit.torture.Fault;
import dev.baton.testkit.torture.ServerFaults;
import dev.baton.testkit.torture.ShortTorture;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture on a three-member cluster whose leader is killed now and then. */
class EtcdClusterTortureTest extends ShortTorture {
  @RegisterExtension
  static final EtcdClusterExtension etcd = new EtcdClusterExtension();

  @Override
  protected Class<? extends LockClientFactory> factory() {
    return EtcdClientFactory.class;
  }

  @Override
  protected String target() {
    return etcd.endpoints();
  }

  @Override
  protected String name() {
    return "etcd-cluster";
  }

  @Override
  protected Set<Fault> faults() {
    return EnumSet.of(Fault.PAUSE, Fault.KILL, Fault.LEADER_KILL);
  }

  @Override
  protected ServerFaults serverFaults() {
    return TortureServers.of(etcd.cluster());
  }
}
