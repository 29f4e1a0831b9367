package dev.baton.etcd;

import dev.baton.testkit.LockClientFactory;
import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.TortureServers;
import dev.baton.testkit.torture.Fault;
import dev.baton.testkit.torture.ServerFaults;
import dev.baton.testkit.torture.ShortTorture;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture, against a single etcd member (3 s leases), restarted now and then. */
class EtcdTortureTest extends ShortTorture {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @Override
  protected Class<? extends LockClientFactory> factory() {
    return EtcdClientFactory.class;
  }

  @Override
  protected String target() {
    return etcd.endpoint();
  }

  @Override
  protected String name() {
    return "etcd";
  }

  @Override
  protected Set<Fault> faults() {
    return EnumSet.of(Fault.PAUSE, Fault.KILL, Fault.SERVER_RESTART);
  }

  @Override
  protected ServerFaults serverFaults() {
    return TortureServers.of(etcd.server());
  }
}
