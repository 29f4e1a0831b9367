package dev.baton.etcd;

import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Fault;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture, against a single etcd member (3 s leases), restarted now and then. */
class EtcdTortureTest extends ShortTorture {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  EtcdTortureTest() {
    super(EtcdClientFactory.class, "etcd", pauseKillAnd(Fault.SERVER_RESTART));
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
