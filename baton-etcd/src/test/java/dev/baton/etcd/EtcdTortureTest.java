package dev.baton.etcd;

import dev.baton.testkit.LockClientFactory;
import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.torture.ShortTorture;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The short torture, against a single etcd member (3 s leases). */
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
}
