package dev.baton.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.embedded.EmbeddedZooKeeper;
import dev.baton.embedded.internal.Loopback;
import java.time.Duration;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Starting, expiring sessions on, restarting and stopping an in-process ZooKeeper server. */
class EmbeddedZooKeeperTest {
  private static final Duration SESSION = Duration.ofSeconds(5);
  private static final Duration EVENT_TIMEOUT = Duration.ofSeconds(5);

  private final EmbeddedZooKeeper server = new EmbeddedZooKeeper();

  @AfterEach
  void stopServer() {
    server.stop();
  }

  @Test
  @Timeout(20)
  void servesAClientAndStopsWithoutLeavingAPortOrAThread() throws Exception {
    ThreadLeaks threads = ThreadLeaks.snapshot();
    server.start();
    assertThat(server.isRunning()).isTrue();
    assertThat(server.connectString()).isEqualTo("127.0.0.1:" + server.port());

    try (SessionClient client = SessionClient.connect(server.connectString(), SESSION)) {
      ZooKeeper zk = client.zooKeeper();
      zk.create("/node", "value".getBytes(UTF_8), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
      assertThat(new String(zk.getData("/node", false, null), UTF_8)).isEqualTo("value");
    }
    int port = server.port();

    server.stop();

    assertThat(server.isRunning()).isFalse();
    assertThat(Loopback.isListening(port)).isFalse();
    threads.awaitNoneLeft(Duration.ofSeconds(5));
  }

  @Test
  @Timeout(20)
  void expireSessionMakesTheClientSeeExpiredAndRemovesItsEphemerals() throws Exception {
    server.start();
    try (SessionClient doomed = SessionClient.connect(server.connectString(), SESSION);
        SessionClient observer = SessionClient.connect(server.connectString(), SESSION)) {
      doomed.zooKeeper().create("/ephemeral", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
      long sessionId = doomed.zooKeeper().getSessionId();
      assertThat(server.sessionIds()).contains(sessionId, observer.zooKeeper().getSessionId());

      server.expireSession(sessionId);

      assertThat(server.sessionIds()).doesNotContain(sessionId);
      assertThat(observer.zooKeeper().exists("/ephemeral", false)).isNull();
      doomed.awaitState(KeeperState.Expired, 1, EVENT_TIMEOUT);
    }
  }

  @Test
  @Timeout(20)
  void sessionTimeoutsAreBoundedBy200MillisecondsAnd10Seconds() throws Exception {
    server.start();
    try (SessionClient quick = SessionClient.connect(server.connectString(), Duration.ofMillis(50));
        SessionClient slow = SessionClient.connect(server.connectString(), Duration.ofMinutes(1))) {
      assertThat(quick.zooKeeper().getSessionTimeout()).isEqualTo(200);
      assertThat(slow.zooKeeper().getSessionTimeout()).isEqualTo(10_000);
    }
  }

  @Test
  @Timeout(20)
  void restartKeepsThePortTheDataAndTheSessions() throws Exception {
    server.start();
    int port = server.port();
    try (SessionClient client = SessionClient.connect(server.connectString(), SESSION)) {
      ZooKeeper zk = client.zooKeeper();
      zk.create("/kept", "yes".getBytes(UTF_8), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
      zk.create("/mine", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
      long sessionId = zk.getSessionId();

      server.restart();

      assertThat(server.port()).isEqualTo(port);
      client.awaitState(KeeperState.Disconnected, 1, EVENT_TIMEOUT);
      client.awaitState(KeeperState.SyncConnected, 2, EVENT_TIMEOUT);
      assertThat(zk.getSessionId()).isEqualTo(sessionId);
      assertThat(new String(zk.getData("/kept", false, null), UTF_8)).isEqualTo("yes");
      assertThat(zk.exists("/mine", false).getEphemeralOwner()).isEqualTo(sessionId);
    }
  }

  @Test
  @Timeout(20)
  void startAfterStopUsesTheSamePortWithNoData() throws Exception {
    server.start();
    int port = server.port();
    try (SessionClient client = SessionClient.connect(server.connectString(), SESSION)) {
      client.zooKeeper().create("/gone", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    }

    server.stop();
    server.start();

    assertThat(server.port()).isEqualTo(port);
    try (SessionClient client = SessionClient.connect(server.connectString(), SESSION)) {
      assertThat(client.zooKeeper().exists("/gone", false)).isNull();
    }
  }

  @Test
  @Timeout(20)
  void misuseIsReportedClearly() {
    assertThatThrownBy(server::connectString).isInstanceOf(IllegalStateException.class).hasMessageContaining("start()");
    assertThatThrownBy(() -> server.expireSession(1)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not running");

    server.start();

    assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("already running");
    assertThatThrownBy(() -> server.expireSession(0x1234L)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no session 0x1234");
  }
}
