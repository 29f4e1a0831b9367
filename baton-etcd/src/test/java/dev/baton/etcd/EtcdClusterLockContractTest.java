package dev.baton.etcd;

import dev.baton.testkit.EtcdClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract, against a three-member etcd cluster, the clients given all three endpoints. */
class EtcdClusterLockContractTest extends EtcdContract {
  @RegisterExtension
  static final EtcdClusterExtension etcd = new EtcdClusterExtension();

  @Override
  protected String target() {
    return etcd.endpoints();
  }
}
