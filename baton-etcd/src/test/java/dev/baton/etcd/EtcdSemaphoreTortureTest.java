package dev.baton.etcd;

import dev.baton.testkit.EtcdClusterExtension;
import dev.baton.testkit.TortureServers;
import dev.baton.testkit.torture.Fault;
import dev.baton.testkit.torture.Primitive;
import dev.baton.testkit.torture.ServerFaults;
import dev.baton.testkit.torture.ShortTorture;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture of a semaphore on a three-member cluster whose leader is killed now and then. */
class EtcdSemaphoreTortureTest extends ShortTorture {
  @RegisterExtension
  static final EtcdClusterExtension etcd = new EtcdClusterExtension();

  EtcdSemaphoreTortureTest() {
    super(EtcdClientFactory.class, "etcd-semaphore", pauseKillAnd(Fault.LEADER_KILL), Primitive.SEMAPHORE);
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
