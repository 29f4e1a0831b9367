package dev.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockHolder;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.engine.memory.MemoryStore;
import dev.baton.memory.FakeTicker;
import dev.baton.spi.ClientFactory;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lingering locks ({@link LockOptions.Builder#linger}) on the in-memory store and fake time: a re-acquire in the
 * same client takes the lingering entry without a store call and with its token; the linger ends at its bound, when
 * another client waits or asks, when the client closes, and with the entry's loss.
 */
@Timeout(30)
class LingerTest {
  private static final Duration TTL = Duration.ofSeconds(3);
  private static final Duration LINGER = Duration.ofSeconds(5);
  /** How long a real thread may take to notice a change of fake time or a signal. */
  private static final Duration PROMPTLY = Duration.ofSeconds(5);
  /** A wait, in fake time, that the tests never reach. */
  private static final Duration WAIT = Duration.ofMinutes(10);

  private final FakeTicker time = new FakeTicker();
  private final MemoryStore store = MemoryStore.create("linger-" + UUID.randomUUID(), time);
  private final LockOptions lingering = LockOptions.builder().ttl(TTL).linger(LINGER).build();
  private final CountingBackend counted = new CountingBackend(store.newBackend());
  private final LockClient client = ClientFactory.newClient(counted, lingering, time);
  private final LockClient other = store.connect(LockOptions.builder().ttl(TTL).build());
  private final String key = "linger/" + UUID.randomUUID();

  @AfterEach
  void closeAll() {
    client.close();
    other.close();
    store.close();
  }

  @Test
  void aReAcquireTakesTheLingeringEntryWithItsTokenAndNoStoreCall() throws Exception {
    long token;
    try (Lease first = client.lock(key).acquire()) {
      token = first.fencingToken();
    }
    for (int i = 0; i < 100; i++) {
      try (Lease again = client.lock(key).acquire()) {
        assertThat(again.fencingToken()).isEqualTo(token);
        assertThat(again.isHeld()).isTrue();
      }
    }
    assertThat(counted.attempts).hasValue(1);
    assertThat(counted.releases).hasValue(0);
    assertThat(store.entries(key)).isEqualTo(1);
  }

  @Test
  void theLingerEndsAtItsBoundAndIsRenewedUntilThen() throws Exception {
    client.lock(key).acquire().close();
    time.advance(LINGER.minusMillis(1)); // longer than the ttl: renewed
    assertThat(store.entries(key)).isEqualTo(1);
    time.advance(Duration.ofMillis(1));
    await().atMost(PROMPTLY).until(() -> store.entries(key) == 0);
    assertThat(counted.releases).hasValue(1);
  }

  /**
   * A re-acquire once the linger has lasted its bound does not take the entry again, though the timer that ends the
   * linger has not run yet (on the system's time another thread runs it, a moment later): the acquirer gets the key
   * from the store, with a new token, and the bound holds whichever comes first.
   */
  @Test
  void aReAcquireAtTheLingersBoundGoesToTheStoreBeforeItsTimerRuns() throws Exception {
    CountingBackend late = new CountingBackend(store.newBackend());
    HoldingTicker engineTime = new HoldingTicker(time);
    try (LockClient lateClient = ClientFactory.newClient(late, lingering, engineTime)) {
      long token;
      try (Lease first = lateClient.lock(key).acquire()) {
        token = first.fencingToken();
      }
      engineTime.holdTasksFrom(time.read() + LINGER.toNanos());
      time.advance(LINGER); // renewed until then; the linger's timer, due now, held back
      assertThat(engineTime.heldTasks()).as("the linger's timer").isPositive();

      try (Lease again = lateClient.lock(key).acquire(WAIT)) {
        assertThat(again.fencingToken()).as("a token from the store").isGreaterThan(token);
      }
      assertThat(late.attempts).hasValue(2);
      engineTime.runHeldTasks();
    }
  }

  @Test
  void anotherClientsWaiterEndsAnIdleLingerAtOnce() throws Exception {
    long token;
    try (Lease first = client.lock(key).acquire()) {
      token = first.fencingToken();
    }
    try (Lease theirs = other.lock(key).acquire(WAIT)) {
      assertThat(theirs.fencingToken()).isGreaterThan(token);
    }
  }

  @Test
  void aHeldLingeringLockGoesToAWaiterOfAnotherClientAtItsUnlock() throws Exception {
    Lease held = client.lock(key).acquire();
    BackgroundCall<Lease> theirs = BackgroundCall.start("other", () -> other.lock(key).acquire(WAIT));
    await().atMost(PROMPTLY).until(() -> store.entries(key) == 2);
    await().atMost(PROMPTLY).until(() -> counted.releases.get() == 0 && held.isHeld());
    BackgroundCall<Lease> mine = BackgroundCall.start("mine", () -> client.lock(key).acquire(WAIT));
    mine.awaitBlocked(Duration.ofMillis(20));
    held.close();
    Lease taken = theirs.result(PROMPTLY);
    assertThat(taken.fencingToken()).isGreaterThan(held.fencingToken());
    taken.close();
    mine.result(PROMPTLY).close();
  }

  @Test
  void aRequestToReleaseEndsAnIdleLinger() throws Exception {
    client.lock(key).acquire().close();
    await().atMost(PROMPTLY).until(() -> store.listensForReleaseRequests(clientIdOf(key)));
    assertThat(other.requestRelease(key)).isEqualTo(1);
    await().atMost(PROMPTLY).until(() -> store.entries(key) == 0);
  }

  @Test
  void closingTheClientReleasesLingeringEntries() throws Exception {
    client.lock(key).acquire().close();
    assertThat(store.entries(key)).isEqualTo(1);
    client.close();
    assertThat(store.entries(key)).isZero();
  }

  @Test
  void aLingeringEntryLostAtTheStoreIsNotTakenAgain() throws Exception {
    long token;
    try (Lease first = client.lock(key).acquire()) {
      token = first.fencingToken();
    }
    store.removeHolder(key);
    time.advance(TTL); // the next renewal finds the entry gone
    await().atMost(PROMPTLY).until(() -> counted.attempts.get() == 1 && !lingers());
    try (Lease again = client.lock(key).acquire(WAIT)) {
      assertThat(again.fencingToken()).isGreaterThan(token);
    }
    assertThat(counted.attempts).hasValue(2);
  }

  @Test
  void theStatusShowsALingeringHolder() throws Exception {
    client.lock(key).acquire().close();
    LockStatus status = other.status(key);
    assertThat(status.isHeld()).isTrue();
    assertThat(status.holder()).map(LockHolder::linger).contains(LINGER);
    client.lock(key, LockOptions.builder().ttl(TTL).build()).acquire().close(); // taken again without linger
    await().atMost(PROMPTLY).until(() -> store.entries(key) == 0);
  }

  @Test
  void lingerIsRefusedOutOfRangeWithAHoldTimeoutAndForOtherPrimitives() {
    assertThatThrownBy(() -> LockOptions.builder().linger(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("linger");
    assertThatThrownBy(() -> LockOptions.builder().linger(LockOptions.MAX_DURATION.plusMillis(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("linger");
    assertThatThrownBy(() -> LockOptions.builder().linger(LINGER).holdTimeout(LINGER).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holdTimeout");
    assertThat(LockOptions.builder().linger(Duration.ZERO).build().linger()).isEmpty();
    assertThatThrownBy(() -> client.semaphore(key, 2, lingering).acquire())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mutexes only");
    assertThatThrownBy(() -> client.readWriteLock(key, lingering).writeLock().acquire())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mutexes only");
    assertThatThrownBy(() -> client.multiLock(java.util.List.of(key, key + "/2"), lingering).acquire())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mutexes only");
  }

  private boolean lingers() {
    return store.entries(key) == 1;
  }

  private String clientIdOf(String key) {
    return other.status(key).ownerId().map(owner -> owner.substring(0, owner.lastIndexOf(':'))).orElse("");
  }
}
