package dev.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockObserver;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.LostReason;
import dev.baton.Primitive;
import dev.baton.engine.memory.MemoryStore;
import dev.baton.memory.FakeTicker;
import dev.baton.spi.ClientFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine's timing on fake time: wait and hold timeouts, renewals, losses and an unreachable store, with the
 * store and both clients on one {@link FakeTicker} that the test moves. Hours of lock time take milliseconds, and
 * every assertion is about the instant things happen at: not a moment before their time, and at it.
 */
@Timeout(30)
class EngineInFakeTimeTest {
  private static final Duration TTL = Duration.ofSeconds(3);
  /** How long a real thread may take to notice a change of fake time or a signal. */
  private static final Duration PROMPTLY = Duration.ofSeconds(5);
  /** How long, in real time, something that must not happen yet is watched for. */
  private static final Duration A_WHILE = Duration.ofMillis(100);
  private static final Duration A_MOMENT = Duration.ofMillis(1);
  /** How long, in real time, a thread stays parked before the test takes it as waiting. */
  private static final Duration PARKED = Duration.ofMillis(20);

  private final FakeTicker time = new FakeTicker();
  private final MemoryStore store = MemoryStore.create("fake-time-" + UUID.randomUUID(), time);
  private final LockOptions options = LockOptions.builder().ttl(TTL).build();
  private final LockClient first = store.connect(options);
  private final LockClient second = store.connect(options);
  private final String key = "fake-time/" + UUID.randomUUID();

  @AfterEach
  void closeAll() {
    first.close();
    second.close();
    store.close();
  }

  @Test
  void aWaitEndsAtItsDeadlineAndNotBefore() throws Exception {
    first.lock(key).acquire();
    BackgroundCall<Lease> waiter = BackgroundCall.start("waiter", () -> second.lock(key).acquire(Duration.ofMinutes(10)));
    awaitWaitingAtTheStore(waiter);

    time.advance(Duration.ofMinutes(10).minus(A_MOMENT));
    watchNotDone(waiter);
    time.advance(A_MOMENT);

    assertThat(waiter.failure(PROMPTLY)).isInstanceOf(LockTimeoutException.class).hasMessageContaining("within 10 min");
    assertThat(store.entries(key)).as("the waiter's entry, gone").isEqualTo(1);
  }

  @Test
  void aHoldTimeoutEndsTheLeaseAtItsTimeAndFreesTheLock() throws Exception {
    List<LostReason> lost = new CopyOnWriteArrayList<>();
    Lease lease = first.lock(key).acquire(options.withHoldTimeout(Duration.ofHours(2)));
    lease.onLost(lost::add);

    time.advance(Duration.ofHours(2).minus(A_MOMENT));
    assertThat(lease.isHeld()).isTrue();
    assertThat(second.lock(key).tryAcquire()).isEmpty();
    time.advance(A_MOMENT);

    await().atMost(PROMPTLY).untilAsserted(() -> {
      assertThat(lease.state()).isEqualTo(LeaseState.EXPIRED);
      assertThat(lost).containsExactly(LostReason.HOLD_TIMEOUT);
    });
    assertThat(second.lock(key).tryAcquire()).isPresent();
  }

  @Test
  void extendHoldMovesTheHoldTimeout() throws Exception {
    Lease lease = first.lock(key).acquire(options.withHoldTimeout(Duration.ofSeconds(10)));
    time.advance(Duration.ofSeconds(8));

    assertThat(lease.extendHold(Duration.ofSeconds(10))).isTrue();
    time.advance(Duration.ofSeconds(10).minus(A_MOMENT));
    assertThat(lease.isHeld()).isTrue();
    assertThat(second.lock(key).tryAcquire()).isEmpty();
    time.advance(A_MOMENT);

    await().atMost(PROMPTLY).until(() -> lease.state() == LeaseState.EXPIRED);
    assertThat(second.lock(key).tryAcquire()).isPresent();
  }

  @Test
  void theWatchdogRenewsEveryThirdOfTheTtlForAsLongAsTheLeaseIsHeld() throws Exception {
    AtomicInteger renewals = new AtomicInteger();
    first.observe(new LockObserver() {
      @Override
      public void renewed(Lease renewed, Primitive primitive, boolean succeeded) {
        assertThat(succeeded).isTrue();
        renewals.incrementAndGet();
      }
    });
    Lease lease = first.lock(key).acquire();

    time.advance(Duration.ofHours(1));

    assertThat(lease.isHeld()).isTrue();
    assertThat(second.lock(key).tryAcquire()).isEmpty();
    // One renewal a second (a third of the 3 s ttl), give or take the first and the last.
    await().atMost(PROMPTLY).untilAsserted(() -> assertThat(renewals.get()).isBetween(3_599, 3_601));
    assertThat(second.status(key).fencingToken()).hasValue(lease.fencingToken());
  }

  /**
   * Readers that share one entry are renewed as one: eight of them cost the store one renewal a third of a ttl, not
   * eight, and hold for as long as it is renewed, while a writer of another client is kept out.
   */
  @Test
  void readersSharingOneEntryCostOneRenewalStream() throws Exception {
    AtomicInteger renewals = new AtomicInteger();
    first.observe(new LockObserver() {
      @Override
      public void renewed(Lease renewed, Primitive primitive, boolean succeeded) {
        renewals.incrementAndGet();
      }
    });
    List<Lease> readers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      readers.add(BackgroundCall.start("reader-" + i, () -> first.readWriteLock(key).readLock().acquire()).result(PROMPTLY));
    }
    assertThat(store.entries(key)).as("the readers' entries at the store").isEqualTo(1);

    time.advance(Duration.ofHours(1));

    assertThat(readers).allMatch(Lease::isHeld);
    assertThat(second.readWriteLock(key).writeLock().tryAcquire()).as("a writer of another client").isEmpty();
    // One renewal a second (a third of the 3 s ttl) for the one entry, give or take the first and the last.
    await().atMost(PROMPTLY).untilAsserted(() -> assertThat(renewals.get()).isBetween(3_599, 3_601));
    readers.forEach(Lease::close);
    assertThat(store.entries(key)).isZero();
    assertThat(second.readWriteLock(key).writeLock().tryAcquire()).isPresent();
  }

  @Test
  void aHolderCutOffFromTheStoreLearnsOfItsLossOnceWhenItsTtlRunsOut() throws Exception {
    List<LostReason> lost = new CopyOnWriteArrayList<>();
    Lease lease = first.lock(key).acquire();
    lease.onLost(lost::add);
    store.cutOff(first.clientId());

    time.advance(TTL.minus(A_MOMENT));
    assertThat(lease.isHeld()).as("held until its validity runs out").isTrue();
    assertThat(second.lock(key).tryAcquire()).isEmpty();
    time.advance(A_MOMENT);

    await().atMost(PROMPTLY).until(() -> !lost.isEmpty());
    assertThat(lease.isHeld()).isFalse();
    time.advance(Duration.ofMinutes(1));
    assertThat(lost).containsExactly(LostReason.RENEWAL_FAILED);
    assertThat(second.lock(key).tryAcquire()).isPresent();
  }

  /**
   * The store's yes to a renewal comes after the entry's validity ran out, before the watchdog's tick at that moment
   * looks at it: the lease is lost, not revived, though the answer came first (another client may have taken the key
   * meanwhile, and the store written our entry back).
   */
  @Test
  void aRenewalAnsweredAfterTheValidityRanOutBeforeTheWatchdogLooksLeavesTheLeaseLost() throws Exception {
    answerARenewalAfterTheValidityRanOut(false);
  }

  /** The same answer after the watchdog's tick found the validity run out: the lease stays lost, told once. */
  @Test
  void aRenewalAnsweredAfterTheWatchdogFoundTheValidityRanOutLeavesTheLeaseLostOnce() throws Exception {
    answerARenewalAfterTheValidityRanOut(true);
  }

  private void answerARenewalAfterTheValidityRanOut(boolean watchdogFirst) throws Exception {
    CountingBackend slow = new CountingBackend(store.newBackend());
    HoldingTicker engineTime = new HoldingTicker(time);
    LockClient client = ClientFactory.newClient(slow, options, engineTime);
    try {
      List<LostReason> lost = new CopyOnWriteArrayList<>();
      Lease lease = client.lock(key).acquire();
      lease.onLost(lost::add);
      slow.holdingRenewals = true;
      advance(TTL.dividedBy(3));
      assertThat(slow.heldRenewals).as("the first renewal's answer, held back").hasSize(1);

      engineTime.holdTasks();
      advance(TTL.minus(TTL.dividedBy(3)));
      assertThat(engineTime.heldTasks()).as("the watchdog's tick at the end of the validity, held back").isPositive();
      assertThat(lease.isHeld()).isFalse();
      if (watchdogFirst) {
        engineTime.runHeldTasks();
        assertThat(lease.state()).isEqualTo(LeaseState.LOST);
      }
      slow.heldRenewals.remove().run(); // the store's yes, sent when the entry was valid, read after it ran out
      assertThat(lease.isHeld()).as("revived by the late answer").isFalse();
      assertThat(lease.state()).isEqualTo(LeaseState.LOST);
      engineTime.runHeldTasks();
      advance(Duration.ZERO); // the lost entry's release, in the background

      await().atMost(PROMPTLY).until(() -> store.entries(key) == 0);
      assertThat(second.lock(key).tryAcquire()).as("the key, for another client at once").isPresent();
      slow.holdingRenewals = false;
      advance(TTL.multipliedBy(3));
      assertThat(lease.isHeld()).isFalse();
      assertThat(lease.state()).isEqualTo(LeaseState.LOST);
      assertThat(slow.renewals).as("renewals sent, none after the loss").hasValue(1);
      await().atMost(PROMPTLY).until(() -> !lost.isEmpty());
      await().during(A_WHILE).atMost(PROMPTLY)
          .untilAsserted(() -> assertThat(lost).containsExactly(LostReason.RENEWAL_FAILED));
    } finally {
      client.close();
    }
  }

  /**
   * A renewal whose answer is slower than a third of the ttl holds the next one back without the watchdog ticking
   * again and again for it meanwhile (which spun the watchdog's thread, and kept fake time's advance from returning),
   * and the next renewal goes out as soon as the answer comes, since it is due by then, not at the tick set for the
   * end of the old validity.
   */
  @Test
  void aSlowRenewalAnswerIsWaitedForAndTheNextRenewalFollowsItOnTime() throws Exception {
    CountingBackend slow = new CountingBackend(store.newBackend());
    LockClient client = ClientFactory.newClient(slow, options, time);
    try {
      Lease lease = client.lock(key).acquire();
      slow.holdingRenewals = true;
      advance(TTL.dividedBy(3));
      assertThat(slow.heldRenewals).as("the first renewal's answer, held back").hasSize(1);

      advance(TTL.dividedBy(2)); // past the second renewal's time, the answer still on its way
      assertThat(slow.renewals).as("renewals sent").hasValue(1);
      assertThat(lease.isHeld()).isTrue();
      slow.holdingRenewals = false;
      slow.heldRenewals.remove().run();
      advance(Duration.ZERO);

      assertThat(slow.renewals).as("renewals sent, the second as the first was answered").hasValue(2);
      advance(TTL.multipliedBy(10));
      assertThat(lease.isHeld()).isTrue();
      assertThat(second.lock(key).tryAcquire()).isEmpty();
    } finally {
      client.close();
    }
  }

  /**
   * The store's grant is read after the entry's ttl ran out (a reply that slow, or this process paused): the acquire
   * gives it back and takes the key again under a new owner, so that the lease it returns is valid, with a new token.
   */
  @Test
  void aGrantAnsweredAfterItsTtlIsGivenBackAndTheKeyTakenAgain() throws Exception {
    CountingBackend slow = new CountingBackend(store.newBackend());
    LockClient client = ClientFactory.newClient(slow, options, time);
    try {
      slow.grantAnswers = new CountDownLatch(1);
      BackgroundCall<Lease> acquire = BackgroundCall.start("acquire",
          () -> client.lock(key).acquire(Duration.ofMinutes(10)));
      await().atMost(PROMPTLY).until(() -> slow.grants.get() == 1);
      long lateToken = second.status(key).fencingToken().orElseThrow();

      advance(TTL);
      slow.grantAnswers.countDown(); // the store's grant, read after its entry expired

      Lease lease = acquire.result(PROMPTLY);
      assertThat(lease.fencingToken()).as("the token of a new grant").isGreaterThan(lateToken);
      assertThat(lease.isHeld()).isTrue();
      assertThat(slow.attempts).hasValue(2);
      assertThat(store.entries(key)).isEqualTo(1);
    } finally {
      client.close();
    }
  }

  /** Moves time on a thread of its own, so that an engine that keeps the advance busy fails the test within a bound. */
  private void advance(Duration step) throws InterruptedException {
    BackgroundCall.start("advance", () -> {
      time.advance(step);
      return step;
    }).result(PROMPTLY);
  }

  @Test
  void aWaiterTakesTheLockOfACrashedHolderWhenItsEntryExpires() throws Exception {
    Lease crashed = first.lock(key).acquire();
    store.cutOff(first.clientId());
    BackgroundCall<Lease> waiter = BackgroundCall.start("waiter", () -> second.lock(key).acquire());
    awaitWaitingAtTheStore(waiter);

    time.advance(TTL.minus(A_MOMENT));
    watchNotDone(waiter);
    time.advance(A_MOMENT);

    assertThat(waiter.result(PROMPTLY).fencingToken()).isGreaterThan(crashed.fencingToken());
  }

  @Test
  void anAcquireWithoutAWaitTimeFailsOnceTheStoreWasUnreachableForATtl() throws Exception {
    store.cutOff(second.clientId());
    BackgroundCall<Lease> acquire = BackgroundCall.start("acquire", () -> second.lock(key).acquire());

    // The acquire backs off between its tries by fake time: move it on until the acquire gives up.
    await().atMost(PROMPTLY).pollInterval(A_MOMENT).until(() -> {
      time.advance(Duration.ofMillis(50));
      return acquire.isDone();
    });

    assertThat(acquire.failure(PROMPTLY)).isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("could not be reached for");
    assertThat(time.read()).as("fake nanoseconds until it gave up").isGreaterThanOrEqualTo(TTL.toNanos());
  }

  @Test
  void aMultiLockWaitsForEveryKeyWithinOneDeadlineAndLetsGoOfTheKeysItTook() throws Exception {
    first.lock(key + "/c").acquire();
    BackgroundCall<Lease> waiter = BackgroundCall.start("multi", () -> second.multiLock(List.of(key + "/c",
        key + "/b", key + "/a")).acquire(Duration.ofMinutes(10)));
    await().atMost(PROMPTLY).until(() -> store.entries(key + "/c") == 2);
    waiter.awaitBlocked(PARKED);
    assertThat(store.entries(key + "/a")).isEqualTo(1);
    assertThat(store.entries(key + "/b")).isEqualTo(1);

    time.advance(Duration.ofMinutes(10).minus(A_MOMENT));
    watchNotDone(waiter);
    time.advance(A_MOMENT);

    assertThat(waiter.failure(PROMPTLY)).isInstanceOf(LockTimeoutException.class).hasMessageContaining("within 10 min")
        .hasMessageContaining(key + "/c");
    assertThat(store.entries(key + "/a")).as("key a, let go of").isZero();
    assertThat(store.entries(key + "/b")).as("key b, let go of").isZero();
  }

  @Test
  void aMultiLocksHoldTimeoutCountsFromWhenEveryKeyIsHeld() throws Exception {
    Lease b = first.lock(key + "/b").acquire();
    BackgroundCall<Lease> waiter = BackgroundCall.start("multi", () -> second.multiLock(List.of(key + "/a",
        key + "/b")).acquire(options.withHoldTimeout(Duration.ofMinutes(2))));
    await().atMost(PROMPTLY).until(() -> store.entries(key + "/b") == 2);
    time.advance(Duration.ofMinutes(3)); // key a held all along, renewed
    assertThat(store.entries(key + "/a")).isEqualTo(1);
    b.close();
    Lease lease = waiter.result(PROMPTLY);
    List<LostReason> lost = new CopyOnWriteArrayList<>();
    lease.onLost(lost::add);

    time.advance(Duration.ofMinutes(2).minus(A_MOMENT));
    assertThat(lease.isHeld()).isTrue();
    assertThat(first.lock(key + "/a").tryAcquire()).isEmpty();
    time.advance(A_MOMENT);

    await().atMost(PROMPTLY).untilAsserted(() -> {
      assertThat(lease.state()).isEqualTo(LeaseState.EXPIRED);
      assertThat(lost).containsExactly(LostReason.HOLD_TIMEOUT);
    });
    await().atMost(PROMPTLY).until(() -> store.entries(key + "/a") == 0 && store.entries(key + "/b") == 0);
  }

  /**
   * A key lost while a later one is waited for stops that wait: the keys taken are let go and taken again from the
   * first, and the lease that comes back holds every key.
   */
  @Test
  void aKeyLostWhileTheMultiLockWaitsForTheNextStartsItOver() throws Exception {
    List<LostReason> partsEnded = observeEndedParts();
    Lease b = first.lock(key + "/b").acquire();
    BackgroundCall<Lease> waiter = BackgroundCall.start("multi", () -> second.multiLock(List.of(key + "/a",
        key + "/b")).acquire());
    await().atMost(PROMPTLY).until(() -> store.entries(key + "/b") == 2);
    store.removeHolder(key + "/a");
    time.advance(TTL.dividedBy(3)); // the renewal of key a finds it gone
    await().atMost(PROMPTLY).until(() -> partsEnded.contains(LostReason.ENTRY_REMOVED));

    await().atMost(PROMPTLY).until(() -> store.entries(key + "/a") == 1 && store.entries(key + "/b") == 2);
    assertThat(first.lock(key + "/a").tryAcquire()).as("key a, taken again by the multi-lock").isEmpty();
    watchNotDone(waiter);
    b.close();

    Lease lease = waiter.result(PROMPTLY);
    assertThat(lease.state()).isEqualTo(LeaseState.HELD);
    assertThat(lease.isHeld()).isTrue();
    assertThat(lease.keys()).containsExactly(key + "/a", key + "/b");
    assertThat(first.lock(key + "/a").tryAcquire()).isEmpty();
    assertThat(first.lock(key + "/b").tryAcquire()).isEmpty();
    lease.close();
    await().atMost(PROMPTLY).until(() -> store.entries(key + "/a") == 0 && store.entries(key + "/b") == 0);
  }

  /** Started over after a loss, an asynchronous multi-lock still has its one deadline, and keeps nothing at it. */
  @Test
  void aMultiLockStartedOverAfterALossKeepsItsOneDeadline() throws Exception {
    List<LostReason> partsEnded = observeEndedParts();
    first.lock(key + "/b").acquire();
    var waiter = second.multiLock(List.of(key + "/a", key + "/b")).acquireAsync(LockOptions.builder().ttl(TTL)
        .waitTime(Duration.ofMinutes(10)).build());
    await().atMost(PROMPTLY).until(() -> store.entries(key + "/b") == 2);
    store.removeHolder(key + "/a");
    time.advance(TTL.dividedBy(3));
    await().atMost(PROMPTLY).until(() -> partsEnded.contains(LostReason.ENTRY_REMOVED));
    await().atMost(PROMPTLY).until(() -> store.entries(key + "/a") == 1 && store.entries(key + "/b") == 2);

    time.advance(Duration.ofMinutes(10).minus(TTL.dividedBy(3)).minus(A_MOMENT));
    await().during(A_WHILE).atMost(PROMPTLY).until(() -> !waiter.isDone());
    time.advance(A_MOMENT);

    assertThat(waiter).failsWithin(PROMPTLY).withThrowableOfType(ExecutionException.class)
        .havingCause().isInstanceOf(LockTimeoutException.class).withMessageContaining("within 10 min");
    await().atMost(PROMPTLY).until(() -> store.entries(key + "/a") == 0 && store.entries(key + "/b") == 1);
  }

  /**
   * A key whose grant is read after the multi-lock's asynchronous acquire was cancelled is released, with the keys
   * taken before it: the multi-lock that gave up keeps nothing.
   */
  @Test
  void aKeyGrantedAfterTheMultiLockWasCancelledIsReleased() throws Exception {
    CountingBackend slow = new CountingBackend(store.newBackend());
    LockClient client = ClientFactory.newClient(slow, options, time);
    try {
      Lease b = first.lock(key + "/b").acquire();
      CompletableFuture<Lease> waiter = client.multiLock(List.of(key + "/a", key + "/b"))
          .acquireAsync(LockOptions.builder().ttl(TTL).waitTime(Duration.ofMinutes(10)).build());
      await().atMost(PROMPTLY).until(() -> store.entries(key + "/b") == 2);
      slow.grantAnswers = new CountDownLatch(1);
      b.close();
      await().atMost(PROMPTLY).until(() -> slow.grants.get() == 2); // key a's, then key b's, held back

      assertThat(waiter.cancel(false)).isTrue();
      slow.grantAnswers.countDown(); // key b's grant, read after the cancel

      await().atMost(PROMPTLY).until(() -> store.entries(key + "/a") == 0 && store.entries(key + "/b") == 0);
      assertThat(first.lock(key + "/a").tryAcquire()).isPresent();
      assertThat(first.lock(key + "/b").tryAcquire()).isPresent();
    } finally {
      client.close();
    }
  }

  /** The reasons the second client's leases ended, a multi-lock's parts among them. */
  private List<LostReason> observeEndedParts() {
    List<LostReason> partsEnded = new CopyOnWriteArrayList<>();
    second.observe(new LockObserver() {
      @Override
      public void ended(Lease part, Primitive primitive, Duration heldFor, LostReason reason) {
        partsEnded.add(reason);
      }
    });
    return partsEnded;
  }

  /**
   * The waiter of the second client has put its entry at the store and waits: its deadline and first try are behind
   * it, and so is the start of its wait for a wake-up, which counts from when it begins (a wait that began after the
   * test moved time would end that much later).
   */
  private void awaitWaitingAtTheStore(BackgroundCall<Lease> waiter) {
    await().atMost(PROMPTLY).until(() -> store.entries(key) == 2);
    waiter.awaitBlocked(PARKED);
  }

  private static void watchNotDone(BackgroundCall<?> call) {
    await().during(A_WHILE).atMost(PROMPTLY).until(() -> !call.isDone());
  }
}
