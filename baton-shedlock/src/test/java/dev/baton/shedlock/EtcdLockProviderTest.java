package dev.baton.shedlock;

import dev.baton.LockClient;
import dev.baton.etcd.EtcdLockClient;
import dev.baton.testkit.EtcdServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ShedLock's provider test suite, and the checks it lacks, on a real etcd server. */
class EtcdLockProviderTest extends BatonLockProviderContract {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @Override
  protected LockClient connect() {
    return EtcdLockClient.connect(etcd.endpoint());
  }
}
