package dev.baton.spring.boot;

import dev.baton.testkit.EtcdServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The starter on a real etcd server. */
class EtcdStarterTest extends StarterContract {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @Override
  protected String backend() {
    return etcd.endpoint();
  }

  @Override
  protected String backendName() {
    return "etcd";
  }
}
