package dev.baton.etcd;

import dev.baton.testkit.EtcdClusterExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Fault;
import dev.baton.torture.Primitive;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The short torture of lingering locks (exclusion, and waiters of other processes served) on a three-member cluster
 * whose leader is killed now and then.
 */
class EtcdLingerTortureTest extends ShortTorture {
  @RegisterExtension
  static final EtcdClusterExtension etcd = new EtcdClusterExtension();

  EtcdLingerTortureTest() {
    super(EtcdClientFactory.class, "etcd-linger", pauseKillAnd(Fault.LEADER_KILL), Primitive.LINGER);
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
