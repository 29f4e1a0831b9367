package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.LockClient;
import dev.baton.servers.TcpProxy;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Lock methods' unlock() sends its delete and returns (ZooKeeperBackend.releaseInOrder); the connection may drop
 * while that delete is on its way. Here the delete reaches the server and its answer is lost to a dropped connection:
 * the answer fails (connection loss), the engine retries the release in the background, and the session reconnects.
 * The key is then free at once for another client of the process, and for the same client's other thread once its
 * session is connected again (until then its calls fail as unavailable).
 */
@Timeout(60)
class ZooKeeperReleaseAheadTest {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  private static final Duration PROMPTLY = Duration.ofSeconds(10);
  private static ZkInspector inspector;

  @BeforeAll
  static void inspect() {
    inspector = new ZkInspector(zookeeper.connectString());
  }

  @AfterAll
  static void stopInspecting() throws InterruptedException {
    inspector.close();
  }

  @Test
  void aKeyWhoseDeleteLostItsAnswerToAReconnectIsFreeForEveryClientOfTheProcess() throws Exception {
    String key = "ahead/" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    try (TcpProxy proxy = TcpProxy.start("127.0.0.1", zookeeper.server().port());
        LockClient releasing = ZooKeeperLockClient.builder().connectString(proxy.address())
            .sessionTimeout(Duration.ofSeconds(10)).connect();
        LockClient other = ZooKeeperLockClient.builder().connectString(zookeeper.connectString()).connect()) {
      DistributedLock lock = releasing.lock(key);
      lock.lock();
      assertThat(inspector.lockNodes(key)).hasSize(1);
      proxy.holdReplies();

      lock.unlock(); // the delete is sent; its answer will be dropped
      await("the delete applied at the server").atMost(PROMPTLY).until(() -> inspector.lockNodes(key).isEmpty());
      proxy.dropConnections();
      proxy.resumeReplies();

      assertThat(tryOnce(other.lock(key))).as("another client's try").isTrue();
      await("the same client reconnected, finding the key free").atMost(PROMPTLY).ignoreExceptions()
          .until(() -> !releasing.status(key).isHeld());
      assertThat(BackgroundCall.start("same-client", () -> tryOnce(releasing.lock(key))).result(PROMPTLY))
          .as("a try of the same client from another thread").isTrue();
    }
  }

  private static boolean tryOnce(DistributedLock lock) {
    if (!lock.tryLock()) {
      return false;
    }
    lock.unlock();
    return true;
  }
}
