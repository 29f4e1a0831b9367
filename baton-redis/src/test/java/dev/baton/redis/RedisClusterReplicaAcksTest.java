package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.servers.RedisServer;
import dev.baton.testkit.RedisClusterExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Replica acknowledgement on a cluster: each grant's WAIT runs at the master of the lock's slot, on the connection that
 * wrote it, so it counts that master's replica; a master whose replica does not answer grants nothing that counts,
 * while the other masters go on granting.
 */
@Timeout(120)
class RedisClusterReplicaAcksTest {
  @RegisterExtension
  static final RedisClusterExtension redis = new RedisClusterExtension();

  private static final RedisKeys KEYS = RedisKeys.tagged(RedisLockClient.DEFAULT_NAMESPACE);

  @Test
  void aGrantCountsOnceTheReplicaOfItsSlotsMasterHasIt() throws Exception {
    try (LockClient client = connect()) {
      for (RedisServer master : redis.cluster().masters()) {
        String key = keyOn(master, "acked/");
        try (Lease lease = client.lock(key).acquire()) {
          assertThat(holds(redis.cluster().replicaOf(master), KEYS.lock(key)))
              .as("%s at the replica of %s", key, master).isTrue();
          assertThat(lease.fencingToken()).isPositive();
        }
      }
    }
  }

  @Test
  void aMasterWhoseReplicaDoesNotAnswerGrantsNothingThatCountsAndTheOthersGoOn() throws Exception {
    List<RedisServer> masters = redis.cluster().masters();
    RedisServer lagging = masters.get(0);
    String stuck = keyOn(lagging, "stuck/");
    String elsewhere = keyOn(masters.get(1), "elsewhere/");
    RedisServer replica = redis.cluster().replicaOf(lagging);
    try (LockClient client = connect()) {
      signal(replica, "STOP");
      try {
        assertThatThrownBy(() -> client.lock(stuck).tryAcquire())
            .isInstanceOf(BackendUnavailableException.class)
            .hasMessageContaining("0 of the 1 replicas");
        assertThat(lagging.command("EXISTS", KEYS.lock(stuck))).as("nothing left at the master").isEqualTo(0L);
        try (Lease other = client.lock(elsewhere).acquire(Duration.ofSeconds(5))) {
          assertThat(other.isHeld()).isTrue();
        }
      } finally {
        signal(replica, "CONT");
      }
      try (Lease lease = client.lock(stuck).acquire(Duration.ofSeconds(10))) {
        assertThat(holds(replica, KEYS.lock(stuck))).isTrue();
      }
    }
  }

  private static LockClient connect() {
    return RedisLockClient.builder().uri(redis.uri()).minReplicas(1, Duration.ofMillis(200)).connect();
  }

  /** The first key under {@code prefix} whose slot {@code master} serves. */
  private static String keyOn(RedisServer master, String prefix) {
    for (int i = 0; ; i++) {
      if (redis.cluster().masterOf(KEYS.lock(prefix + i)).equals(master)) {
        return prefix + i;
      }
    }
  }

  /** Whether {@code node} holds {@code key}: SCAN, which a replica answers where it redirects a read of a key. */
  private static boolean holds(RedisServer node, String key) {
    String cursor = "0";
    do {
      List<?> page = (List<?>) node.command("SCAN", cursor, "MATCH", key, "COUNT", "1000");
      if (!((List<?>) page.get(1)).isEmpty()) {
        return true;
      }
      cursor = (String) page.get(0);
    } while (!cursor.equals("0"));
    return false;
  }

  private static void signal(RedisServer server, String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(server.pid())).inheritIO().start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).as("kill -%s %s", signal, server).isZero();
  }
}
