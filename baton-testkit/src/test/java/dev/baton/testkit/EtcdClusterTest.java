package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.embedded.internal.Loopback;
import dev.baton.servers.EtcdCluster;
import dev.baton.servers.EtcdHttp;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A three-member etcd cluster: replication, losing the leader, a member rejoining, and a clean close. */
class EtcdClusterTest {
  private static final Duration CALL = Duration.ofSeconds(5);
  private static final Duration ELECTION = Duration.ofSeconds(10);

  @RegisterExtension
  static final EtcdClusterExtension etcd = new EtcdClusterExtension();

  @Test
  @Timeout(20)
  void aWriteThroughOneMemberIsReadThroughAnother() throws Exception {
    EtcdCluster cluster = etcd.cluster();
    assertThat(etcd.endpoints()).isEqualTo("http://127.0.0.1:" + cluster.clientPort(0) + ",http://127.0.0.1:"
        + cluster.clientPort(1) + ",http://127.0.0.1:" + cluster.clientPort(2));
    assertThat(cluster.endpoint(1)).isEqualTo("http://127.0.0.1:" + cluster.clientPort(1));

    EtcdHttp.put(cluster.clientPort(0), "replicated", "hello", CALL);

    assertThat(EtcdHttp.get(cluster.clientPort(2), "replicated", CALL)).hasValue("hello");
  }

  @Test
  @Timeout(30)
  void aNewLeaderIsElectedWhenTheLeaderIsKilledAndTheKilledMemberRejoins() throws Exception {
    EtcdCluster cluster = etcd.cluster();
    EtcdHttp.put(cluster.clientPort(cluster.leaderIndex()), "survivor", "still here", CALL);

    int killed = cluster.killLeader();

    assertThat(cluster.isRunning(killed)).isFalse();
    assertThat(Loopback.isListening(cluster.clientPort(killed))).isFalse();
    int leader = cluster.awaitLeader(ELECTION);
    assertThat(leader).isNotEqualTo(killed);
    assertThat(cluster.leaderIndex()).isEqualTo(leader);
    int survivor = otherThan(killed, leader);
    assertThat(EtcdHttp.get(cluster.clientPort(survivor), "survivor", CALL)).hasValue("still here");
    EtcdHttp.put(cluster.clientPort(survivor), "while-down", "written", CALL);

    cluster.start(killed);

    assertThat(cluster.isRunning(killed)).isTrue();
    assertThat(EtcdHttp.get(cluster.clientPort(killed), "survivor", CALL)).hasValue("still here");
    assertThat(EtcdHttp.get(cluster.clientPort(killed), "while-down", CALL)).hasValue("written");
  }

  @Test
  @Timeout(30)
  void aStoppedFollowerCatchesUpWhenItIsStartedAgain() throws Exception {
    EtcdCluster cluster = etcd.cluster();
    int follower = (cluster.leaderIndex() + 1) % EtcdCluster.SIZE;
    long pid = cluster.pid(follower);

    cluster.stop(follower);

    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    int leader = cluster.awaitLeader(ELECTION);
    EtcdHttp.put(cluster.clientPort(leader), "missed", "caught up", CALL);

    cluster.start(follower);

    assertThat(EtcdHttp.get(cluster.clientPort(follower), "missed", CALL)).hasValue("caught up");
  }

  @Test
  @Timeout(40)
  void theWholeClusterStoppedComesBackWithItsData() throws Exception {
    EtcdCluster cluster = etcd.cluster();
    EtcdHttp.put(cluster.clientPort(0), "durable", "kept", CALL);
    for (int i = 0; i < EtcdCluster.SIZE; i++) {
      cluster.stop(i);
    }

    cluster.start(0);
    assertThat(cluster.isRunning(0)).isTrue();
    cluster.start(1);
    cluster.awaitLeader(ELECTION);
    cluster.start(2);

    for (int i = 0; i < EtcdCluster.SIZE; i++) {
      assertThat(EtcdHttp.get(cluster.clientPort(i), "durable", CALL)).hasValue("kept");
    }
  }

  @Test
  @Timeout(20)
  void misuseIsReportedClearly() {
    EtcdCluster cluster = etcd.cluster();
    assertThatThrownBy(() -> cluster.start(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already running");
    assertThatThrownBy(() -> cluster.kill(3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 to 2");
    assertThatThrownBy(cluster::start).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already running");
    assertThatThrownBy(() -> new EtcdCluster().endpoints()).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("start()");
  }

  @Test
  @Timeout(40)
  void closeAfterAnElectionLeavesNoProcessNoPortAndNoThread() {
    ThreadLeaks threads = ThreadLeaks.snapshot();
    EtcdCluster cluster = new EtcdCluster();
    List<Long> pids;
    try {
      cluster.start();
      int killed = cluster.killLeader();
      cluster.awaitLeader(ELECTION);
      cluster.start(killed);
      pids = IntStream.range(0, EtcdCluster.SIZE).mapToObj(cluster::pid).toList();
    } finally {
      cluster.close();
    }

    assertThat(pids).noneMatch(pid -> ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isPresent());
    assertThat(cluster.ports()).hasSize(6).noneMatch(Loopback::isListening);
    threads.awaitNoneLeft(Duration.ofSeconds(5));
  }

  private static int otherThan(int a, int b) {
    return 3 - a - b;
  }
}
