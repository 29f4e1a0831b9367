package dev.baton.etcd;

import dev.baton.testkit.EtcdServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract, against a single etcd member. */
class EtcdLockContractTest extends EtcdContract {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @Override
  protected String target() {
    return etcd.endpoint();
  }
}
