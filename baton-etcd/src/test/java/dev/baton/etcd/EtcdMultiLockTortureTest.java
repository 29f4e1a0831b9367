package dev.baton.etcd;

import dev.baton.testkit.EtcdClusterExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Fault;
import dev.baton.torture.Primitive;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The short torture of multi-locks over random overlapping sets of keys on a three-member cluster whose leader is
 * killed now and then.
 */
class EtcdMultiLockTortureTest extends ShortTorture {
  @RegisterExtension
  static final EtcdClusterExtension etcd = new EtcdClusterExtension();

  EtcdMultiLockTortureTest() {
    super(EtcdClientFactory.class, "etcd-multi", pauseKillAnd(Fault.LEADER_KILL), Primitive.MULTI_LOCK);
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
