package dev.baton.virtualthreads;

import dev.baton.testkit.EtcdServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The virtual-thread contract on an etcd server the test kit starts. */
class EtcdVirtualThreadTest extends VirtualThreadContract {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @Override
  String uri() {
    return etcd.endpoint();
  }
}
