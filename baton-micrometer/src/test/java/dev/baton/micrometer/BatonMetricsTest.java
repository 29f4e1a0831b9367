package dev.baton.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Leadership;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.redis.RedisLockClient;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.RedisServerExtension;
import dev.baton.zookeeper.ZooKeeperLockClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The meters of clients on real Redis and ZooKeeper servers. */
@Timeout(30)
class BatonMetricsTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();
  private static final Duration PROMPTLY = Duration.ofSeconds(5);

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private LockClient client;
  private LockClient other;
  private String key;

  @BeforeEach
  void connect() {
    client = RedisLockClient.connect(redis.uri());
    other = RedisLockClient.connect(redis.uri());
    key = "metered-" + UUID.randomUUID();
  }

  @AfterEach
  void close() {
    client.close();
    other.close();
  }

  @Test
  void countsAcquiresByOutcomeAndTheLocksHeld() throws Exception {
    BatonMetrics.bind(client, registry);
    try (Lease lease = client.lock(key).acquire()) {
      assertThat(gauge()).isEqualTo(1);
      assertThat(lease.isHeld()).isTrue();
    }
    // The end of a hold is told on the client's event thread, a moment after the release returns.
    await().atMost(PROMPTLY).untilAsserted(() -> {
      assertThat(gauge()).isZero();
      assertThat(registry.get("baton.lock.hold").tag("ended", "released").timer().count()).isEqualTo(1);
    });
    assertThat(acquires("acquired")).isEqualTo(1);
    assertThat(registry.find("baton.lock.lost").counters()).isEmpty();
  }

  @Test
  void tagsEachPrimitiveApart() throws Exception {
    BatonMetrics.bind(client, registry);
    try (Lease read = client.readWriteLock(key).readLock().acquire();
        Lease permit = client.semaphore(key + "-slots", 2).acquire()) {
      assertThat(gauge()).isEqualTo(2);
    }
    try (Lease write = client.readWriteLock(key).writeLock().acquire()) {
      assertThat(write.isHeld()).isTrue();
    }
    try (Leadership leadership = client.leadership(key + "-leader")) {
      leadership.start();
      await().atMost(PROMPTLY).until(leadership::isLeader);
    }
    await().atMost(PROMPTLY).untilAsserted(() -> {
      assertThat(gauge()).isZero();
      for (String primitive : List.of("read_lock", "write_lock", "semaphore", "leadership")) {
        assertThat(registry.get("baton.lock.acquire").tags("primitive", primitive, "outcome", "acquired").timer().count())
            .as(primitive).isEqualTo(1);
        assertThat(registry.get("baton.lock.hold").tags("primitive", primitive).timer().count()).as(primitive).isEqualTo(1);
      }
    });
    assertThat(registry.find("baton.lock.acquire").tag("primitive", "lock").timers()).isEmpty();
  }

  @Test
  void aTryOnATakenLockIsTimedOutAndAClosedClientFailed() throws Exception {
    BatonMetrics.bind(client, registry);
    try (Lease held = other.lock(key).acquire()) {
      assertThat(client.lock(key).tryAcquire()).isEmpty();
      assertThat(client.lock(key).tryLock()).isFalse();
    }
    DistributedLock lock = client.lock(key);
    client.close();
    assertThatThrownBy(lock::acquire).isInstanceOf(IllegalStateException.class);
    assertThat(acquires("timed_out")).isEqualTo(2);
    assertThat(acquires("failed")).isEqualTo(1);
    assertThat(registry.get("baton.lock.acquire").tags("backend", "redis").timers()).hasSize(2);
  }

  @Test
  void countsRenewalsAndLocksLostToTheirHoldTimeoutOrBehindTheirBack() throws Exception {
    BatonMetrics.bind(client, registry, true);
    LockOptions shortTtl = LockOptions.builder().ttl(Duration.ofMillis(300)).build();
    Lease renewed = client.lock(key, shortTtl).acquire();
    await().atMost(PROMPTLY).until(() -> counter("baton.lock.renewals", "result", "succeeded") >= 2);
    redis.command("DEL", "baton:lock:" + key);
    await().atMost(PROMPTLY).until(() -> counter("baton.lock.lost", "reason", "entry_removed") == 1);
    assertThat(renewed.isHeld()).isFalse();

    client.lock(key, shortTtl.withHoldTimeout(Duration.ofMillis(100))).acquire();
    await().atMost(PROMPTLY).until(() -> counter("baton.lock.lost", "reason", "hold_timeout") == 1);
    assertThat(gauge()).isZero();
    assertThat(registry.get("baton.lock.acquire").tag("key", key).timer().count()).isEqualTo(2);
  }

  @Test
  void metersZooKeeperClientsToo() throws Exception {
    try (LockClient zk = ZooKeeperLockClient.connect(zooKeeper.connectString())) {
      BatonMetrics.bind(zk, registry);
      try (Lease lease = zk.lock(key).acquire()) {
        assertThat(registry.get("baton.lock.held").tag("backend", "zookeeper").gauge().value()).isEqualTo(1);
      }
      assertThat(registry.get("baton.lock.acquire").tags("backend", "zookeeper", "outcome", "acquired").timer().count())
          .isEqualTo(1);
    }
  }

  @Test
  void rejectsMissingArguments() {
    assertThatThrownBy(() -> BatonMetrics.bind(null, registry)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("LockClient");
    assertThatThrownBy(() -> BatonMetrics.bind(client, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("MeterRegistry");
  }

  private double gauge() {
    return registry.get("baton.lock.held").tag("backend", "redis").gauge().value();
  }

  private long acquires(String outcome) {
    return registry.get("baton.lock.acquire").tags("backend", "redis", "outcome", outcome).timer().count();
  }

  private double counter(String name, String tag, String value) {
    return registry.find(name).tag(tag, value).counters().stream().mapToDouble(c -> c.count()).sum();
  }
}
