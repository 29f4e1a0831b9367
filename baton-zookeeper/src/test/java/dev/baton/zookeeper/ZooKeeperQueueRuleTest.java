package dev.baton.zookeeper;

import dev.baton.spi.LockBackend;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.QueueRuleContract;
import java.time.Duration;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Read locks, semaphores and locks meeting them, at the SPI, on a standalone server: each backend one session. */
@Timeout(60)
class ZooKeeperQueueRuleTest extends QueueRuleContract {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  @Override
  protected LockBackend newBackend() {
    return ZooKeeperBackend.connect(new ZooKeeperSettings(zookeeper.connectString(), SESSION_TIMEOUT, CONNECT_TIMEOUT,
        null, ZooDefs.Ids.OPEN_ACL_UNSAFE, ZooKeeperLockClient.DEFAULT_NAMESPACE,
        ZooKeeperLockClient.Compat.NONE));
  }
}
