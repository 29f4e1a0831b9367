package dev.baton.etcd;

import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Fault;
import dev.baton.torture.Primitive;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
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
