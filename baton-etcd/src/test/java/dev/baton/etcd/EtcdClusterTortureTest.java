package dev.baton.etcd;

import dev.baton.testkit.EtcdClusterExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Fault;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture on a three-member cluster whose leader is killed now and then. */
class EtcdClusterTortureTest extends ShortTorture {
  @RegisterExtension
  static final EtcdClusterExtension etcd = new EtcdClusterExtension();

  EtcdClusterTortureTest() {
    super(EtcdClientFactory.class, "etcd-cluster", pauseKillAnd(Fault.LEADER_KILL));
  }

  @Override
  protected String target() {
    return etcd.endpoints();
  }

  @Override
  protected ServerFaults serverFaults() {
    return TortureServers.of(etcd.cluster());
  }
}
