package dev.baton.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.embedded.ZooKeeperEnsemble;
import dev.baton.embedded.internal.Loopback;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A three-peer ensemble in process: replication, losing the leader, a peer rejoining, and a clean close. */
class ZooKeeperEnsembleTest {
  private static final Duration SESSION = Duration.ofSeconds(5);
  private static final Duration ELECTION_TIMEOUT = Duration.ofSeconds(10);

  @RegisterExtension
  static final ZooKeeperEnsembleExtension cluster = new ZooKeeperEnsembleExtension();

  @Test
  @Timeout(20)
  void aWriteThroughOnePeerIsReadThroughAnother() throws Exception {
    ZooKeeperEnsemble ensemble = cluster.ensemble();
    assertThat(cluster.connectString()).isEqualTo("127.0.0.1:" + ensemble.clientPort(0) + ",127.0.0.1:"
        + ensemble.clientPort(1) + ",127.0.0.1:" + ensemble.clientPort(2));

    try (SessionClient writer = SessionClient.connect(ensemble.connectString(0), SESSION);
        SessionClient reader = SessionClient.connect(ensemble.connectString(2), SESSION)) {
      writer.zooKeeper().create("/replicated", "hello".getBytes(UTF_8), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);

      assertThat(new String(readAfterSync(reader.zooKeeper(), "/replicated"), UTF_8)).isEqualTo("hello");
    }
  }

  @Test
  @Timeout(30)
  void aNewLeaderIsElectedWhenTheLeaderDiesAndTheDeadPeerRejoins() throws Exception {
    ZooKeeperEnsemble ensemble = cluster.ensemble();
    try (SessionClient client = SessionClient.connect(ensemble.connectString(), SESSION)) {
      client.zooKeeper().create("/survivor", "still here".getBytes(UTF_8), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    }

    int killed = ensemble.killLeader();

    assertThat(ensemble.isRunning(killed)).isFalse();
    assertThat(Loopback.isListening(ensemble.clientPort(killed))).isFalse();
    int leader = ensemble.awaitLeader(ELECTION_TIMEOUT);
    assertThat(leader).isNotEqualTo(killed);
    assertThat(ensemble.leaderIndex()).isEqualTo(leader);
    int survivor = otherThan(killed, leader);
    try (SessionClient client = SessionClient.connect(ensemble.connectString(survivor), SESSION)) {
      assertThat(new String(readAfterSync(client.zooKeeper(), "/survivor"), UTF_8)).isEqualTo("still here");
      client.zooKeeper().create("/while-down", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    }

    ensemble.start(killed);

    assertThat(ensemble.isRunning(killed)).isTrue();
    try (SessionClient client = SessionClient.connect(ensemble.connectString(killed), SESSION)) {
      assertThat(new String(readAfterSync(client.zooKeeper(), "/survivor"), UTF_8)).isEqualTo("still here");
      assertThat(client.zooKeeper().exists("/while-down", false)).isNotNull();
    }
  }

  @Test
  @Timeout(20)
  void misuseIsReportedClearly() {
    ZooKeeperEnsemble ensemble = cluster.ensemble();
    assertThatThrownBy(() -> ensemble.start(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already running");
    assertThatThrownBy(() -> ensemble.stop(3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 to 2");
    assertThatThrownBy(ensemble::start).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already running");
  }

  @Test
  @Timeout(30)
  void closeAfterAnElectionLeavesNoPortAndNoThread() {
    ThreadLeaks threads = ThreadLeaks.snapshot();
    ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble();
    try {
      ensemble.start();
      int killed = ensemble.killLeader();
      ensemble.awaitLeader(ELECTION_TIMEOUT);
      ensemble.start(killed);
    } finally {
      ensemble.close();
    }

    assertThat(ensemble.ports()).hasSize(9).noneMatch(Loopback::isListening);
    threads.awaitNoneLeft(Duration.ofSeconds(5));
  }

  /** Reads a node after a sync, so that a follower has caught up with the leader's writes. */
  private static byte[] readAfterSync(ZooKeeper zk, String path) throws Exception {
    CompletableFuture<Integer> synced = new CompletableFuture<>();
    zk.sync(path, (rc, p, ctx) -> synced.complete(rc), null);
    assertThat(synced.get(5, TimeUnit.SECONDS)).isZero();
    return zk.getData(path, false, null);
  }

  private static int otherThan(int a, int b) {
    return 3 - a - b;
  }
}
