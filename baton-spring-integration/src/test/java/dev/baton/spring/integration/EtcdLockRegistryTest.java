package dev.baton.spring.integration;

import dev.baton.LockClient;
import dev.baton.etcd.EtcdLockClient;
import dev.baton.testkit.EtcdServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock registry on a real etcd server. */
class EtcdLockRegistryTest extends BatonLockRegistryContract {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @Override
  protected LockClient connect() {
    return EtcdLockClient.connect(etcd.endpoint());
  }
}
