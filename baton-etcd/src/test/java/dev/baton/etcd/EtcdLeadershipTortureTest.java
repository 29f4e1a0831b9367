package dev.baton.etcd;

import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.TortureServers;
import dev.baton.testkit.torture.Fault;
import dev.baton.testkit.torture.Primitive;
import dev.baton.testkit.torture.ServerFaults;
import dev.baton.testkit.torture.ShortTorture;
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
