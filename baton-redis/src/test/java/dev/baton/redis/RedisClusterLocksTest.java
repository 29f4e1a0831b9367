package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.servers.RedisServer;
import dev.baton.testkit.RecordingLostListener;
import dev.baton.testkit.RedisClusterExtension;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a cluster adds: the keys of many locks spread over every master, each lock's scripts on one slot (no
 * CROSSSLOT), the watchdog renewing them all, list and status across the masters, wake-ups on sharded channels, and
 * the settings a cluster refuses.
 */
@Timeout(120)
class RedisClusterLocksTest {
  @RegisterExtension
  static final RedisClusterExtension redis = new RedisClusterExtension();

  private static final RedisKeys KEYS = RedisKeys.tagged(RedisLockClient.DEFAULT_NAMESPACE);

  private final List<LockClient> clients = new ArrayList<>();

  @AfterEach
  void closeClients() {
    clients.forEach(LockClient::close);
  }

  private LockClient connect(LockOptions options) {
    LockClient client = RedisLockClient.builder().uri(redis.uri()).defaultOptions(options).connect();
    clients.add(client);
    return client;
  }

  @Test
  void eightLocksOnEveryMasterAreHeldRenewedListedAndReleased() throws Exception {
    Map<String, RedisServer> masterOf = keysOnEveryMaster("spread/", 8);
    Duration ttl = Duration.ofSeconds(1);
    LockClient client = connect(LockOptions.defaults().withTtl(ttl));
    List<Lease> leases = new ArrayList<>();
    RecordingLostListener lost = new RecordingLostListener();
    for (String key : masterOf.keySet()) {
      Lease lease = client.lock(key).acquire(Duration.ZERO);
      lease.onLost(lost);
      leases.add(lease);
    }
    masterOf.forEach((key, master) -> assertThat(master.command("EXISTS", KEYS.lock(key))).isEqualTo(1L));
    long acquiredAt = serverMillis(masterOf.values().iterator().next());

    // Without renewals every entry would have expired one ttl after its acquire.
    await("three ttls of the server's clock").atMost(Duration.ofSeconds(30))
        .until(() -> serverMillis(masterOf.values().iterator().next()) > acquiredAt + 3 * ttl.toMillis());
    assertThat(leases).allSatisfy(lease -> assertThat(lease.isHeld()).isTrue());
    assertThat(lost.reasons()).isEmpty();
    masterOf.forEach((key, master) -> assertThat(master.command("EXISTS", KEYS.lock(key)))
        .as("the entry of %s at %s", key, master).isEqualTo(1L));

    List<LockStatus> listed = client.list("spread/", 100);
    assertThat(listed).extracting(LockStatus::key).containsExactlyElementsOf(masterOf.keySet().stream().sorted().toList());
    assertThat(listed).allSatisfy(status -> assertThat(status.isHeld()).isTrue());
    assertThat(client.status(leases.get(0).key()).fencingToken()).hasValue(leases.get(0).fencingToken());

    leases.forEach(Lease::close);
    masterOf.forEach((key, master) -> assertThat(master.command("EXISTS", KEYS.lock(key))).isEqualTo(0L));
    assertThat(client.list("spread/", 100)).isEmpty();
  }

  @Test
  void aReleaseWakesAWaiterOfAnotherClientOnTheLocksShardedChannel() throws Exception {
    LockOptions options = LockOptions.defaults().withTtl(Duration.ofSeconds(30)).withWaitTime(Duration.ofSeconds(60));
    LockClient holder = connect(options);
    LockClient waiter = connect(options);
    String key = "woken/" + System.nanoTime();
    Lease held = holder.lock(key).acquire();
    CompletableFuture<Lease> waiting = waiter.lock(key).acquireAsync();
    RedisServer master = redis.cluster().masterOf(KEYS.lock(key));
    await("the waiter's sharded subscription at the lock's master").atMost(Duration.ofSeconds(10))
        .until(() -> shardSubscribers(master, KEYS.channel(key)) == 1L);
    assertThat(holder.status(key).waiters()).isEqualTo(1);

    held.close();

    // Far sooner than the 30 s the waiter was told to wait at most without a wake-up.
    Lease woken = waiting.get(3, TimeUnit.SECONDS);
    assertThat(woken.fencingToken()).isGreaterThan(held.fencingToken());
    woken.close();
    await("the waiter's channel unsubscribed").atMost(Duration.ofSeconds(10))
        .until(() -> shardSubscribers(master, KEYS.channel(key)) == 0L);
  }

  @Test
  void aNamespaceWithABraceIsRefusedBeforeConnecting() {
    assertThatThrownBy(() -> RedisLockClient.builder().uri(redis.uri()).namespace("{app}").connect())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'{app}:' holds a brace")
        .hasMessageContaining("Use a namespace without '{' and '}'");
  }

  @Test
  void redissonsLayoutIsRefusedOnACluster() {
    assertThatThrownBy(() -> RedisLockClient.builder().uri(redis.uri()).compat(RedisLockClient.Compat.REDISSON)
        .connect())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("names a cluster, where compat=REDISSON is not offered");
  }

  @Test
  void aClusterWithoutAnswerIsNamedAndNoPasswordShownAndNothingLeftRunning() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    String seeds = "127.0.0.1:" + closedPort + ",127.0.0.1:" + closedPort;
    assertThatThrownBy(() -> RedisLockClient.builder().uri("redis-cluster://:s3cret@" + seeds)
        .connectTimeout(Duration.ofMillis(200)).connect())
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("cluster of seeds " + seeds)
        .hasMessageContaining("cluster mode")
        .hasMessageNotContaining("s3cret");
    await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
        .noneMatch(t -> t.getName().startsWith("lettuce-")));
  }

  @Test
  void aServerNotInClusterModeIsRefusedWithWhatToCheck() {
    RedisServer plain = new RedisServer();
    plain.start();
    try {
      assertThatThrownBy(() -> RedisLockClient.connect("redis-cluster://127.0.0.1:" + plain.port()))
          .isInstanceOf(BackendUnavailableException.class)
          .hasMessageContaining("cluster of seeds 127.0.0.1:" + plain.port())
          .hasMessageContaining("CLUSTER INFO says cluster_state:ok");
    } finally {
      plain.stop();
    }
  }

  /** {@code count} keys under {@code prefix}, in key order, at least two on each master, with the master of each. */
  private static Map<String, RedisServer> keysOnEveryMaster(String prefix, int count) {
    List<RedisServer> masters = redis.cluster().masters();
    Map<String, RedisServer> keys = new LinkedHashMap<>();
    Set<RedisServer> used = new HashSet<>();
    for (int i = 0; keys.size() < count; i++) {
      String key = prefix + i;
      RedisServer master = redis.cluster().masterOf(KEYS.lock(key));
      long onIt = keys.values().stream().filter(master::equals).count();
      if (onIt < 2 || used.size() == masters.size()) {
        keys.put(key, master);
        used.add(master);
      }
    }
    assertThat(used).containsExactlyInAnyOrderElementsOf(masters);
    return keys;
  }

  private static long serverMillis(RedisServer server) {
    List<?> time = (List<?>) server.command("TIME");
    return Long.parseLong((String) time.get(0)) * 1000 + Long.parseLong((String) time.get(1)) / 1000;
  }

  private static long shardSubscribers(RedisServer server, String channel) {
    List<?> reply = (List<?>) server.command("PUBSUB", "SHARDNUMSUB", channel);
    return (Long) reply.get(1);
  }
}
