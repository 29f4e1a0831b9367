package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.servers.RedisClusterSet;
import dev.baton.servers.RedisErrorReply;
import dev.baton.servers.RedisServer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RedisClusterSetTest {
  private static final RedisClusterSet cluster = new RedisClusterSet();

  @BeforeAll
  static void start() {
    cluster.start();
  }

  @AfterAll
  static void close() {
    cluster.close();
  }

  @Test
  void threeMastersServeEverySlotAndNameTheOwnerOfAKeyTheyDoNotServe() {
    assertThat(cluster.masters()).hasSize(3);
    assertThat(cluster.uri()).startsWith("redis-cluster://127.0.0.1:");
    assertThat(cluster.nodes()).allSatisfy(node -> assertThat(node.port() + 10_000).isLessThan(65_536));

    RedisServer owner = ownerOf("some-key");
    assertThat(owner.command("SET", "some-key", "v")).isEqualTo("OK");
    RedisServer other = cluster.masters().stream().filter(node -> node != owner).findFirst().orElseThrow();
    assertThatThrownBy(() -> other.command("GET", "some-key")).hasMessageContaining("MOVED");
  }

  @Test
  void aFailoverPromotesTheReplicaOfSlotZeroKeepsWhatItHadAndBringsTheKilledNodeBackAsAReplica() {
    String key = keyInSlotZero();
    RedisServer master = ownerOf(key);
    master.command("SET", key, "kept");
    assertThat(master.command("WAIT", "1", "5000")).isEqualTo(1L); // on the replica before the master dies
    List<RedisServer> mastersBefore = cluster.masters();

    cluster.failover();

    RedisServer promoted = ownerOf(key);
    assertThat(promoted).isNotSameAs(master);
    assertThat(promoted.command("GET", key)).isEqualTo("kept");
    assertThat(cluster.masters()).hasSize(3).doesNotContain(master).contains(promoted);
    assertThat(mastersBefore).contains(master).doesNotContain(promoted);
    assertThat((String) master.command("INFO", "replication")).contains("role:slave", "master_link_status:up");
  }

  /** The master that serves {@code key}'s slot: the others answer MOVED. */
  private static RedisServer ownerOf(String key) {
    for (RedisServer master : cluster.masters()) {
      try {
        master.command("GET", key);
        return master;
      } catch (RedisErrorReply moved) {
        assertThat(moved).hasMessageContaining("MOVED");
      }
    }
    throw new AssertionError("No master serves '" + key + "'");
  }

  private static String keyInSlotZero() {
    RedisServer any = cluster.nodes().get(0);
    for (int i = 0; ; i++) {
      String key = "k" + i;
      if ((Long) any.command("CLUSTER", "KEYSLOT", key) == 0) {
        return key;
      }
    }
  }
}
