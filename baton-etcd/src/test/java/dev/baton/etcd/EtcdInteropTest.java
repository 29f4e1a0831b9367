package dev.baton.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.EtcdServerExtension;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * compat=etcd against etcd's own lock on one name: {@code etcdctl lock} (Debian's etcd-client, a Go process of its
 * own, whose sessions last 60 s here) and the lock service through jetcd's {@code Lock}. Each side excludes, waits
 * for and wakes the other; a wait that ended well within the session's ttl was a wake-up.
 */
@Timeout(180)
class EtcdInteropTest {
  private static final Duration PROMPTLY = Duration.ofSeconds(10);
  private static final String SESSION_TTL = "60";

  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @TempDir
  Path dir;

  private final List<LockClient> clients = new ArrayList<>();
  private final List<Process> processes = new ArrayList<>();
  private String key;

  @BeforeEach
  void name() {
    key = "interop-" + UUID.randomUUID();
  }

  @AfterEach
  void stop() {
    processes.forEach(Process::destroyForcibly);
    clients.forEach(LockClient::close);
  }

  @Test
  void aCounterUpdatedByBatonEtcdctlAndTheLockServiceIsExact() throws Exception {
    Path counter = Files.writeString(dir.resolve("counter"), "0");
    int times = 12;
    Process shell = start("sh", "-c", "for i in $(seq " + times + "); do etcdctl --endpoints " + etcd.endpoint()
        + " lock --ttl " + SESSION_TTL + " " + key + " -- sh -c 'v=$(cat " + counter + "); sleep 0.01; echo $((v + 1)) > "
        + counter + "' || exit 1; done");
    List<BackgroundCall<Void>> others = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      DistributedLock lock = compatible().lock(key);
      others.add(BackgroundCall.start("baton-counter-" + c, () -> {
        for (int i = 0; i < times; i++) {
          try (Lease lease = lock.acquire()) {
            increment(counter);
          }
        }
        return null;
      }));
    }
    others.add(BackgroundCall.start("lock-service-counter", () -> {
      try (Client jetcd = Client.builder().endpoints(etcd.endpoint()).build()) {
        long lease = jetcd.getLeaseClient().grant(60).get(10, TimeUnit.SECONDS).getID();
        ByteSequence name = ByteSequence.from(key, StandardCharsets.UTF_8);
        for (int i = 0; i < times; i++) {
          ByteSequence held = jetcd.getLockClient().lock(name, lease).get(60, TimeUnit.SECONDS).getKey();
          increment(counter);
          jetcd.getLockClient().unlock(held).get(10, TimeUnit.SECONDS);
        }
      }
      return null;
    }));
    for (BackgroundCall<Void> other : others) {
      other.result(Duration.ofSeconds(150));
    }
    assertThat(shell.waitFor(150, TimeUnit.SECONDS)).isTrue();
    assertThat(shell.exitValue()).as(output(shell)).isZero();

    assertThat(Long.parseLong(Files.readString(counter).strip())).as("updates by all three, none lost")
        .isEqualTo(4L * times);
  }

  @Test
  void batonWaitsForEtcdctlsHolderAndIsWokenByItsRelease() throws Exception {
    Process etcdctl = holdWithEtcdctl();
    DistributedLock lock = compatible().lock(key);
    assertThat(lock.tryAcquire()).as("a try while etcdctl holds").isEmpty();
    BackgroundCall<Lease> waiter = BackgroundCall.start("baton-waiter", () -> lock.acquire());
    waiter.awaitBlocked();

    long releasedAt = System.nanoTime();
    release(etcdctl);
    try (Lease lease = waiter.result(PROMPTLY)) {
      assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).as("woken, not freed by the session's expiry")
          .isLessThan(Duration.ofSeconds(30));
    }
  }

  @Test
  void etcdctlWaitsForBatonsHolderAndIsWokenByItsRelease() throws Exception {
    Lease held = compatible().lock(key).acquire();
    Process etcdctl = etcdctlHolding();
    BufferedReader out = new BufferedReader(new InputStreamReader(etcdctl.getInputStream(), StandardCharsets.UTF_8));
    assertThat(etcdctl.waitFor(500, TimeUnit.MILLISECONDS)).as("etcdctl still waiting").isFalse();

    long releasedAt = System.nanoTime();
    held.close();
    assertThat(out.readLine()).isEqualTo("held");
    assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).isLessThan(Duration.ofSeconds(30));
    assertThat(compatible().lock(key).tryAcquire()).as("a try while etcdctl holds").isEmpty();
    release(etcdctl);
  }

  @Test
  void whatEtcdsLockHasNotIsRefused() {
    LockClient client = compatible();
    assertThatThrownBy(() -> client.readWriteLock(key).readLock().acquire())
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("compat=etcd");
    assertThatThrownBy(() -> client.semaphore(key, 2).acquire())
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("compat=etcd");
  }

  @Test
  void aKeyWithALockNestedUnderItIsRefused() throws Exception {
    LockClient client = compatible();
    try (Lease nested = client.lock(key + "/sub").acquire()) {
      assertThatThrownBy(() -> compatible().lock(key).acquire(PROMPTLY))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("'" + key + "/sub' is nested under it");
    }
  }

  private LockClient compatible() {
    LockClient client = EtcdLockClient.builder().endpoints(etcd.endpoint()).compat(EtcdLockClient.Compat.ETCD).connect();
    clients.add(client);
    return client;
  }

  /** An {@code etcdctl lock} that has taken {@code key}, and holds it until {@link #release}. */
  private Process holdWithEtcdctl() throws IOException {
    Process etcdctl = etcdctlHolding();
    BufferedReader out = new BufferedReader(new InputStreamReader(etcdctl.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).as("etcdctl's answer").isEqualTo("held");
    return etcdctl;
  }

  /**
   * An {@code etcdctl lock} of {@code key} whose command says {@code held} and runs until {@link #release} makes its
   * file (etcdctl gives its command no standard input to wait on).
   */
  private Process etcdctlHolding() throws IOException {
    return start("etcdctl", "--endpoints", etcd.endpoint(), "lock", "--ttl", SESSION_TTL, key, "--", "sh", "-c",
        "echo held; while [ ! -e " + dir.resolve("release") + " ]; do sleep 0.01; done");
  }

  private void release(Process etcdctl) throws IOException, InterruptedException {
    Files.createFile(dir.resolve("release"));
    assertThat(etcdctl.waitFor(PROMPTLY.toSeconds(), TimeUnit.SECONDS)).as("etcdctl's exit").isTrue();
  }

  private Process start(String... command) throws IOException {
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    processes.add(process);
    return process;
  }

  private static String output(Process process) throws IOException {
    return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  /** A read, a pause in which a second holder would read the same value, and a write. */
  private static void increment(Path counter) throws IOException, InterruptedException {
    long value = Long.parseLong(Files.readString(counter).strip());
    Thread.sleep(10);
    Files.writeString(counter, Long.toString(value + 1));
  }
}
