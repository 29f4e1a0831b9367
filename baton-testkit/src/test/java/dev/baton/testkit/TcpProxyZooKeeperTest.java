package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.embedded.internal.Loopback;
import dev.baton.servers.TcpProxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The case the proxy was made for: a create that reached ZooKeeper but whose reply was lost (ZOOKEEPER-1262). */
class TcpProxyZooKeeperTest {
  private static final Duration SESSION = Duration.ofSeconds(5);
  private static final Duration EVENT_TIMEOUT = Duration.ofSeconds(5);

  @RegisterExtension
  static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();

  @Test
  @Timeout(20)
  void aCreateWhoseReplyWasLostLeavesTheNodeAndTheSessionGoesOn() throws Exception {
    try (TcpProxy proxy = TcpProxy.start(Loopback.HOST, zooKeeper.server().port());
        SessionClient client = SessionClient.connect(proxy.address(), SESSION);
        SessionClient direct = SessionClient.connect(zooKeeper.connectString(), SESSION)) {
      long sessionId = client.zooKeeper().getSessionId();

      proxy.holdReplies();
      CompletableFuture<Code> reply = new CompletableFuture<>();
      client.zooKeeper().create("/lost-reply", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL,
          (rc, path, ctx, name) -> reply.complete(Code.get(rc)), null);
      await().atMost(EVENT_TIMEOUT).until(() -> direct.zooKeeper().exists("/lost-reply", false) != null);
      proxy.dropConnections();
      proxy.resumeReplies();

      assertThat(reply.get(EVENT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(Code.CONNECTIONLOSS);
      client.awaitState(KeeperState.SyncConnected, 2, EVENT_TIMEOUT);
      assertThat(client.zooKeeper().getSessionId()).isEqualTo(sessionId);
      Stat stat = client.zooKeeper().exists("/lost-reply", false);
      assertThat(stat).isNotNull();
      assertThat(stat.getEphemeralOwner()).isEqualTo(sessionId);
    }
  }
}
