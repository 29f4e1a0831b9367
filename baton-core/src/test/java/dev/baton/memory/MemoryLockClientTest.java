package dev.baton.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code memory://}: clients of one name share a store, clients of other names never meet, {@code memory://} is the
 * JVM's default store, and a store whose last client is closed is forgotten.
 */
@Timeout(30)
class MemoryLockClientTest {
  private static final int ROUNDS = 200;

  private final List<LockClient> clients = new ArrayList<>();

  @AfterEach
  void closeClients() {
    clients.forEach(LockClient::close);
  }

  @Test
  void twoClientsOfOneStoreExcludeEachOther() throws Exception {
    LockClient first = connect("memory://counter");
    LockClient second = connect("counter");
    Counter counter = new Counter();
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      Future<?> one = threads.submit(() -> count(first.lock("counter"), counter));
      Future<?> other = threads.submit(() -> count(second.lock("counter"), counter));
      one.get();
      other.get();
    } finally {
      threads.shutdownNow();
    }

    assertThat(counter.value).isEqualTo(2 * ROUNDS);
    try (Lease held = first.lock("counter").acquire()) {
      assertThat(second.lock("counter").tryAcquire()).isEmpty();
      assertThat(second.status("counter").ownerId()).contains(held.ownerId());
    }
  }

  @Test
  void storesOfOtherNamesNeverMeet() throws Exception {
    LockClient orders = connect("memory://orders");
    LockClient billing = connect("memory://billing");
    try (Lease held = orders.lock("job").acquire()) {
      Optional<Lease> other = billing.lock("job").tryAcquire();
      assertThat(other).isPresent();
      other.get().close();
      assertThat(billing.list("", 10)).isEmpty();
      assertThat(orders.list("", 10)).hasSize(1);
    }
  }

  @Test
  void aNamespaceSeparatesTheKeysOfClients() throws Exception {
    LockClient orders = clientOf(MemoryLockClient.connect("memory://spaces", "team/orders", LockOptions.defaults()));
    LockClient sameNamespace = clientOf(MemoryLockClient.connect("spaces", "team/orders", LockOptions.defaults()));
    LockClient plain = connect("memory://spaces");
    try (Lease lease = orders.lock("namespaced").acquire()) {
      assertThat(sameNamespace.status("namespaced").isHeld()).isTrue();
      assertThat(plain.status("namespaced").isHeld()).isFalse();
    }
    assertThatThrownBy(() -> MemoryLockClient.connect("spaces", "/orders", LockOptions.defaults()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'/orders'");
  }

  @Test
  void memoryWithoutANameIsTheDefaultStore() throws Exception {
    LockClient plain = MemoryLockClient.connect();
    clients.add(plain);
    LockClient uri = connect("memory://");
    LockClient empty = connect("");
    try (Lease held = plain.lock("report").acquire()) {
      assertThat(uri.lock("report").tryAcquire()).isEmpty();
      assertThat(empty.lock("report").tryAcquire()).isEmpty();
    }
    assertThat(connect("memory://other").lock("report").tryAcquire()).isPresent();
  }

  @Test
  void aStoreLivesWhileAClientDoesAndIsForgottenAfterTheLast() throws Exception {
    LockClient first = MemoryLockClient.connect("memory://short-lived");
    first.lock("k").acquire().close();
    LockClient second = MemoryLockClient.connect("memory://short-lived");
    first.close();
    try (Lease lease = second.lock("k").acquire()) {
      assertThat(lease.fencingToken()).as("the store lived on with a client").isEqualTo(2);
    }
    second.close();

    LockClient later = connect("memory://short-lived");
    try (Lease lease = later.lock("k").acquire()) {
      assertThat(lease.fencingToken()).as("a new store after the last client closed").isEqualTo(1);
    }
  }

  @Test
  void theDefaultOptionsAreTheClients() {
    LockOptions options = LockOptions.defaults().withTtl(Duration.ofSeconds(7));
    LockClient client = MemoryLockClient.connect("memory://options", options);
    clients.add(client);
    assertThat(client.defaultOptions()).isEqualTo(options);
    assertThat(client.backendName()).isEqualTo("memory");
  }

  @Test
  void onFakeTimeAHoldTimeoutEndsTheLeaseWhenTheTestMovesTimeToIt() throws Exception {
    FakeTicker time = new FakeTicker();
    LockClient client = clientOf(MemoryLockClient.connect("memory://fake-time", LockOptions.defaults(), time));
    LockClient other = clientOf(MemoryLockClient.connect("memory://fake-time", LockOptions.defaults(), time));
    Lease lease = client.lock("k").acquire(LockOptions.defaults().withHoldTimeout(Duration.ofHours(1)));

    time.advance(Duration.ofHours(1).minusMillis(1));
    assertThat(lease.isHeld()).as("a moment before its hold timeout").isTrue();
    assertThat(other.lock("k").tryAcquire()).isEmpty();
    time.advance(Duration.ofMillis(1));

    await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(lease.isHeld()).as("at its hold timeout").isFalse());
    assertThat(other.lock("k").tryAcquire()).isPresent();
  }

  @Test
  void clientsOfOneStoreRunOnOneTime() {
    FakeTicker time = new FakeTicker();
    clientOf(MemoryLockClient.connect("memory://one-time", LockOptions.defaults(), time));

    assertThatThrownBy(() -> MemoryLockClient.connect("memory://one-time", LockOptions.defaults(), new FakeTicker()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("memory://one-time")
        .hasMessageContaining("same time");
    assertThatThrownBy(() -> MemoryLockClient.connect("memory://one-time")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("in use on another time");
    assertThatThrownBy(() -> MemoryLockClient.connect("memory://other", LockOptions.defaults(), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("new FakeTicker()");
    assertThatThrownBy(() -> time.advance(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT-1S");
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory://a/b", "memory://orders?ttl=1s", "memory://host:6379", "redis://127.0.0.1:6379",
      "two words", "memory:orders"})
  void aNameThatIsNoneIsRefusedNamingIt(String store) {
    assertThatThrownBy(() -> MemoryLockClient.connect(store)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + store + "'").hasMessageContaining("memory://NAME");
  }

  @Test
  void noStoreAndOverlongNamesAreRefused() {
    assertThatThrownBy(() -> MemoryLockClient.connect(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("memory://NAME");
    assertThatThrownBy(() -> MemoryLockClient.connect("x".repeat(101))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 100");
    assertThatThrownBy(() -> MemoryLockClient.connect("memory://x", null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("LockOptions.defaults()");
  }

  private LockClient connect(String store) {
    return clientOf(MemoryLockClient.connect(store));
  }

  private LockClient clientOf(LockClient client) {
    clients.add(client);
    return client;
  }

  /** Adds one to {@code counter} {@value #ROUNDS} times under {@code lock}, with a pause between read and write. */
  private static Void count(DistributedLock lock, Counter counter) throws InterruptedException {
    for (int i = 0; i < ROUNDS; i++) {
      try (Lease ignored = lock.acquire()) {
        int read = counter.value;
        LockSupport.parkNanos(50_000);
        counter.value = read + 1;
      }
    }
    return null;
  }

  /** A counter that loses updates made without the lock. */
  private static final class Counter {
    private volatile int value;
  }
}
