package dev.baton.etcd;

import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.TortureServers;
import dev.baton.testkit.torture.Fault;
import dev.baton.testkit.torture.Primitive;
import dev.baton.testkit.torture.ServerFaults;
import dev.baton.testkit.torture.ShortTorture;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture of the read-write lock on a single etcd member (3 s leases), restarted now and then. */
class EtcdReadWriteTortureTest extends ShortTorture {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  EtcdReadWriteTortureTest() {
    super(EtcdClientFactory.class, "etcd-rw", pauseKillAnd(Fault.SERVER_RESTART), Primitive.READ_WRITE);
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
