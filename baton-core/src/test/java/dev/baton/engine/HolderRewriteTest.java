package dev.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockHolder;
import dev.baton.LockHolder.MultiLock;
import dev.baton.LockOptions;
import dev.baton.engine.memory.MemoryStore;
import dev.baton.memory.FakeTicker;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.ClientFactory;
import dev.baton.spi.Grant;
import dev.baton.spi.LockBackend;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A key's entry handed over locally to a holder for other keys ({@link HandoverTerms}) has its holder record rewritten
 * to name them ({@link HeldEntry}), where the store can; where it cannot, the waiter takes the key at the store. A
 * rewrite never leaves an entry behind a release, a loss or an expiry (the in-memory store's
 * {@link LockBackend#rewriteHolder}).
 */
@Timeout(30)
class HolderRewriteTest {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration LONG_WAIT = Duration.ofSeconds(10);
  /** How soon a record names its new holder: one write on a background thread. */
  private static final Duration SOON = Duration.ofSeconds(5);
  private static final Duration PARKED = Duration.ofMillis(100);

  private final String prefix = "rewrite/" + UUID.randomUUID() + "/";
  private final MemoryStore store = MemoryStore.create("rewrite-" + UUID.randomUUID(), null);
  private final LockOptions options = LockOptions.builder().ttl(TTL).build();
  private final LockClient observer = store.connect(options);
  private LockClient client;

  @AfterEach
  void closeAll() {
    if (client != null) {
      client.close();
    }
    observer.close();
    store.close();
  }

  private String key(String name) {
    return prefix + name;
  }

  private Optional<MultiLock> recordOf(String key) {
    return observer.status(key).holder().flatMap(LockHolder::multiLock);
  }

  @Test
  void aKeyHandedOverToAnotherSetOrToALockHasItsRecordRewrittenToNameIt() throws Exception {
    CountingBackend counted = new CountingBackend(store.newBackend());
    client = ClientFactory.newClient(counted, options);
    List<String> pair = List.of(key("a"), key("b"));
    List<String> other = List.of(key("a"), key("c"));

    Lease first = client.multiLock(pair).acquire(LONG_WAIT);
    long token = first.fencingToken(key("a"));
    assertThat(recordOf(key("a"))).contains(MultiLock.of(pair));
    BackgroundCall<Lease> second = BackgroundCall.start("other-set", () -> client.multiLock(other).acquire(LONG_WAIT));
    second.awaitBlocked(PARKED);
    int attempts = counted.attempts.get();
    first.close();
    Lease overlapping = second.result(LONG_WAIT);
    assertThat(overlapping.fencingToken(key("a"))).as("handed over: the same entry").isEqualTo(token);
    assertThat(counted.attempts.get() - attempts).as("acquisitions at the store: key c only").isEqualTo(1);
    await("the record of a names the set it is held for now").atMost(SOON)
        .until(() -> recordOf(key("a")).equals(Optional.of(MultiLock.of(other))));
    assertThat(recordOf(key("c"))).contains(MultiLock.of(other));
    assertThat(observer.status(key("a")).fencingToken()).hasValue(token);

    BackgroundCall<Lease> alone = BackgroundCall.start("alone", () -> client.lock(key("a")).acquire(LONG_WAIT));
    alone.awaitBlocked(PARKED);
    overlapping.close();
    try (Lease lock = alone.result(LONG_WAIT)) {
      assertThat(lock.fencingToken()).as("handed over again").isEqualTo(token);
      await("the record of a names no set").atMost(SOON).until(() -> recordOf(key("a")).isEmpty());
      assertThat(observer.status(key("a")).holder()).isPresent();
    }
    assertThat(counted.rewritten).as("rewrites sent").hasValue(2);
    await().atMost(SOON).until(() -> store.entries(key("a")) == 0);
  }

  @Test
  void whereTheStoreCannotRewriteTheWaiterForAnotherSetTakesTheKeyAtTheStore() throws Exception {
    CountingBackend counted = new CountingBackend(store.newBackend(), false);
    client = ClientFactory.newClient(counted, options);
    List<String> pair = List.of(key("a"), key("b"));
    List<String> other = List.of(key("a"), key("c"));

    Lease first = client.multiLock(pair).acquire(LONG_WAIT);
    BackgroundCall<Lease> second = BackgroundCall.start("other-set", () -> client.multiLock(other).acquire(LONG_WAIT));
    second.awaitBlocked(PARKED);
    first.close();
    try (Lease overlapping = second.result(LONG_WAIT)) {
      assertThat(overlapping.fencingToken(key("a"))).as("a new entry").isGreaterThan(first.fencingToken(key("a")));
      assertThat(recordOf(key("a"))).contains(MultiLock.of(other));
    }
    assertThat(counted.rewritten).hasValue(0);
  }

  @Test
  void aRewriteRacingAReleaseNeverLeavesAnEntryBehind() throws Exception {
    try (LockBackend backend = store.newBackend()) {
      for (int round = 0; round < 200; round++) {
        String key = key("race-" + round);
        Grant grant = grant(backend, key);
        AtomicBoolean stop = new AtomicBoolean();
        CompletableFuture<Void> rewriting = CompletableFuture.runAsync(() -> {
          while (!stop.get() && backend.rewriteHolder(grant, holder(Optional.of(MultiLock.of(List.of(key)))))) {
            Thread.onSpinWait();
          }
        });
        assertThat(backend.release(grant)).isTrue();
        stop.set(true);
        rewriting.get();
        assertThat(backend.rewriteHolder(grant, holder(Optional.empty()))).as("a rewrite after the release").isFalse();
        assertThat(store.entries(key)).as("entries of %s", key).isZero();
      }
    }
  }

  @Test
  void aRewriteAfterALossOrAnExpiryFindsNothingAndLeavesNothing() throws Exception {
    FakeTicker time = new FakeTicker();
    try (MemoryStore timed = MemoryStore.create("rewrite-timed-" + UUID.randomUUID(), time);
        LockBackend backend = timed.newBackend()) {
      Grant lost = grant(backend, key("lost"));
      timed.removeHolder(key("lost"));
      assertThat(backend.rewriteHolder(lost, holder(Optional.empty()))).as("after a loss").isFalse();
      assertThat(timed.entries(key("lost"))).isZero();

      Grant expiring = grant(backend, key("expiring"));
      time.advance(TTL);
      assertThat(backend.rewriteHolder(expiring, holder(Optional.empty()))).as("after its expiry").isFalse();
      assertThat(timed.entries(key("expiring"))).isZero();
      assertThat(backend.renew(expiring, TTL).toCompletableFuture().get()).as("no rewrite revived it").isFalse();
    }
  }

  private static LockHolder holder(Optional<MultiLock> multiLock) {
    return new LockHolder("host", 1, "thread", Instant.EPOCH, Duration.ZERO, multiLock);
  }

  private static Grant grant(LockBackend backend, String key) {
    AcquireRequest request = new AcquireRequest(key, "rewrite:" + UUID.randomUUID(), QueueRule.EXCLUSIVE, TTL, null,
        true, false, holder(Optional.empty()));
    Outcome outcome = backend.newAttempt(request).tryAcquire(() -> { });
    assertThat(outcome.grant()).as("a free key's grant").isNotNull();
    return outcome.grant();
  }
}
