package consumer;

import dev.baton.LockClient;
import dev.baton.embedded.EmbeddedZooKeeper;
import dev.baton.zookeeper.ZooKeeperLockClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ZooKeeperLocksTest {
  private static final EmbeddedZooKeeper SERVER = new EmbeddedZooKeeper();

  @BeforeAll
  static void start() {
    SERVER.start();
  }

  @AfterAll
  static void stop() {
    SERVER.close();
  }

  @Test
  void locksOnZooKeeper() throws Exception {
    try (LockClient first = ZooKeeperLockClient.connect(SERVER.connectString());
        LockClient second = ZooKeeperLockClient.connect(SERVER.connectString())) {
      LockRounds.distinctKeys(first, "zookeeper");
      LockRounds.contended(first, second, "zookeeper");
    }
  }
}
