package dev.baton.etcd;

import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Fault;
import dev.baton.torture.Primitive;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture of leader election on a single etcd member (3 s leases), restarted now and then. */
class EtcdLeadershipTortureTest extends ShortTorture {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  EtcdLeadershipTortureTest() {
    super(EtcdClientFactory.class, "etcd-leader", pauseKillAnd(Fault.SERVER_RESTART), Primitive.LEADERSHIP);
  }

  @Override
  protected String target() {
    return etcd.endpoint();
  }

  @Override
  protected ServerFaults serverFaults() {
    return TortureServers.of(etcd.server());
  }
}
