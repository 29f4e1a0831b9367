package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.PeerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * compat=curator against the real Curator 5.9 in a JVM of its own ({@link CuratorPeer}), on one name: key
 * {@code K} of Baton and {@code new InterProcessMutex(client, "/K")} of Curator exclude each other, wait for each
 * other, and wake each other at a release. Sessions last 30 s, so a wait that ended sooner was a wake-up.
 */
@Timeout(120)
class CuratorInteropTest {
  private static final Duration PROMPTLY = Duration.ofSeconds(10);
  private static final Duration SESSION = Duration.ofSeconds(30);

  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  @TempDir
  Path dir;

  private final List<LockClient> clients = new ArrayList<>();
  private String key;
  private PeerProcess curator;

  @BeforeEach
  void startCurator() throws Exception {
    key = "interop/" + UUID.randomUUID();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    curator = PeerProcess.start("Curator", List.of(java.toString(), "-XX:TieredStopAtLevel=1", "-cp",
            System.getProperty("java.class.path"), CuratorPeer.class.getName(), zookeeper.connectString(), "/" + key),
        Set.of("HELD", "RELEASED", "COUNTED", "REVOKE_REQUESTED", "REVOKED"), Duration.ofSeconds(30));
  }

  @AfterEach
  void stop() {
    curator.close();
    clients.forEach(LockClient::close);
  }

  @Test
  void aCounterUpdatedByBothSidesUnderTheLockIsExact() throws Exception {
    Path counter = Files.writeString(dir.resolve("counter"), "0");
    int threads = 2;
    int times = 40;
    curator.send("COUNT " + threads + " " + times + " 2 " + counter);
    List<BackgroundCall<Void>> batons = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      DistributedLock lock = compatible().lock(key);
      batons.add(BackgroundCall.start("baton-counter-" + c, () -> {
        for (int i = 0; i < times; i++) {
          try (Lease lease = lock.acquire()) {
            SharedCounter.increment(counter, 2);
          }
        }
        return null;
      }));
    }
    for (BackgroundCall<Void> baton : batons) {
      baton.result(Duration.ofSeconds(90));
    }
    curator.await("COUNTED", Duration.ofSeconds(90));

    assertThat(SharedCounter.read(counter)).as("updates by Baton and Curator, none lost").isEqualTo(4L * times);
  }

  @Test
  void batonWaitsForCuratorsHolderAndIsWokenByItsRelease() throws Exception {
    curator.send("HOLD");
    curator.await("HELD", PROMPTLY);
    DistributedLock lock = compatible().lock(key);
    assertThat(lock.tryAcquire()).as("a try while Curator holds").isEmpty();
    BackgroundCall<Lease> waiter = BackgroundCall.start("baton-waiter", () -> lock.acquire());
    waiter.awaitBlocked();

    long releasedAt = System.nanoTime();
    curator.send("RELEASE");
    try (Lease lease = waiter.result(PROMPTLY)) {
      assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).as("woken, not freed by a session's end")
          .isLessThan(SESSION);
      assertThat(lease.isHeld()).isTrue();
    }
    curator.await("RELEASED", PROMPTLY);
  }

  @Test
  void curatorWaitsForBatonsHolderAndIsWokenByItsRelease() throws Exception {
    Lease held = compatible().lock(key).acquire();
    curator.send("HOLD");
    assertThat(curator.next(Duration.ofMillis(500))).as("Curator's answer while Baton holds").isNull();

    long releasedAt = System.nanoTime();
    held.close();
    curator.await("HELD", PROMPTLY);
    assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).isLessThan(SESSION);
    assertThat(compatible().lock(key).tryAcquire()).as("a try while Curator holds").isEmpty();
    curator.send("RELEASE");
    curator.await("RELEASED", PROMPTLY);
  }

  @Test
  void aRevocableCuratorHolderHearsBatonsRequestAndKeepsTheLock() throws Exception {
    curator.send("HOLD_REVOCABLE");
    curator.await("HELD", PROMPTLY);
    LockClient client = compatible();
    assertThat(client.requestRelease(key)).isEqualTo(1);
    curator.await("REVOKE_REQUESTED", PROMPTLY);
    assertThat(client.lock(key).tryAcquire()).as("a request is no release").isEmpty();
    curator.send("RELEASE");
    curator.await("RELEASED", PROMPTLY);
  }

  @Test
  void aBatonHolderHearsCuratorsRevoker() throws Exception {
    try (Lease held = compatible().lock(key).acquire()) {
      AtomicInteger told = new AtomicInteger();
      held.onReleaseRequested(told::incrementAndGet);
      curator.send("REVOKE");
      curator.await("REVOKED", PROMPTLY);
      await().atMost(PROMPTLY).until(() -> told.get() == 1);
      assertThat(held.isHeld()).isTrue();
    }
  }

  @Test
  void whatCuratorWouldMisorderIsRefusedAtOnce() {
    LockClient client = compatible();
    assertThatThrownBy(() -> client.lock(key, LockOptions.builder().fair(false).build()).acquire())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("compat=curator").hasMessageContaining("fair");
    assertThatThrownBy(() -> client.readWriteLock(key).readLock().acquire())
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("compat=curator");
    assertThatThrownBy(() -> client.semaphore(key, 2).acquire())
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("compat=curator");
    assertThatThrownBy(() -> client.lock("zookeeper/quota"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("server's own node");
    assertThat(client.readWriteLock(key).writeLock().tryAcquire()).as("a write lock is a lock").isPresent()
        .hasValueSatisfying(Lease::close);
  }

  private LockClient compatible() {
    LockClient client = ZooKeeperLockClient.builder().connectString(zookeeper.connectString()).sessionTimeout(SESSION)
        .compat(ZooKeeperLockClient.Compat.CURATOR).connect();
    clients.add(client);
    return client;
  }
}
