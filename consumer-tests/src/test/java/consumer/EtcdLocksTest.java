package consumer;

import dev.baton.LockClient;
import dev.baton.etcd.EtcdLockClient;
import dev.baton.servers.EtcdServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EtcdLocksTest {
  private static final EtcdServer SERVER = new EtcdServer();

  @BeforeAll
  static void start() {
    SERVER.start();
  }

  @AfterAll
  static void stop() {
    SERVER.close();
  }

  @Test
  void locksOnEtcd() throws Exception {
    try (LockClient first = EtcdLockClient.connect(SERVER.endpoint());
        LockClient second = EtcdLockClient.connect(SERVER.endpoint())) {
      LockRounds.distinctKeys(first, "etcd");
      LockRounds.contended(first, second, "etcd");
    }
  }
}
