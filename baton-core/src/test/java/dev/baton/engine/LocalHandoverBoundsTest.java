package dev.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.engine.memory.MemoryStore;
import dev.baton.memory.FakeTicker;
import dev.baton.spi.ClientFactory;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine's bounds on a chain of local hand-overs, exactly, on the in-memory store and fake time: a fair lock
 * changes hands 64 times in a row between the threads of one client before it goes back to the store, a non-fair one
 * 16 times (the contract only checks that chains are bounded; the numbers are the engine's tuning, not API). At a
 * chain's end the store keeps the entry for the next holder only while it is still valid.
 */
@Timeout(30)
class LocalHandoverBoundsTest {
  /** A wait, in fake time, longer than any test moves time. */
  private static final Duration WAIT = Duration.ofSeconds(10);
  /** How long, in real time, a thread may take to do what it was started for. */
  private static final Duration PROMPTLY = Duration.ofSeconds(5);
  /** How long, in real time, a thread waits in the client's local queue before the test takes it as queued. */
  private static final Duration QUEUED = Duration.ofMillis(30);
  /** More hand-overs than any chain is long. */
  private static final int WATCHED = 100;

  private final FakeTicker time = new FakeTicker();
  private final MemoryStore store = MemoryStore.create("handover-bounds-" + UUID.randomUUID(), time);

  @AfterEach
  void closeStore() {
    store.close();
  }

  @Test
  void aFairChainIs64HandOversLong() throws Exception {
    assertThat(holdersOfTheFirstToken(LockOptions.defaults())).isEqualTo(1 + 64);
  }

  @Test
  void aNonFairChainIs16HandOversLong() throws Exception {
    assertThat(holdersOfTheFirstToken(LockOptions.defaults().toBuilder().fair(false).build())).isEqualTo(1 + 16);
  }

  /**
   * The store's answer that it kept the entry at the end of a chain (which counts as a renewal) comes after the
   * entry's validity ran out, before the watchdog's tick at that moment: the entry is lost, as the tick would have
   * found it, and not handed to the next holder, who takes the key at the store with a new token once the lost entry
   * is released.
   */
  @Test
  void aChainKeptByAnAnswerAfterTheValidityRanOutIsNotHandedOn() throws Exception {
    keepAnsweredAfterTheValidityRanOut(false);
  }

  /** The same answer after the watchdog's tick found the entry's validity run out: the entry stays lost. */
  @Test
  void aChainKeptByAnAnswerAfterTheWatchdogFoundTheValidityRanOutIsNotHandedOn() throws Exception {
    keepAnsweredAfterTheValidityRanOut(true);
  }

  private void keepAnsweredAfterTheValidityRanOut(boolean watchdogFirst) throws Exception {
    Duration ttl = Duration.ofSeconds(3);
    LockOptions options = LockOptions.builder().ttl(ttl).fair(false).build();
    CountingBackend slow = new CountingBackend(store.newBackend());
    HoldingTicker engineTime = new HoldingTicker(time);
    try (LockClient client = ClientFactory.newClient(slow, options, engineTime)) {
      Lease held = client.lock("hot").acquire();
      long firstToken = held.fencingToken();
      time.advance(ttl.multipliedBy(2).dividedBy(3)); // renewed twice: valid until 5/3 of the ttl
      engineTime.holdTasks();
      time.advance(ttl.dividedBy(6));
      for (int i = 0; i < 16; i++) {
        BackgroundCall<Lease> next = BackgroundCall.start("holder-" + i, () -> client.lock("hot").acquire(WAIT));
        next.awaitBlocked(QUEUED);
        held.close();
        held = next.result(PROMPTLY);
      }
      assertThat(held.fencingToken()).as("the chain's 17th holder's token").isEqualTo(firstToken);
      slow.keepAnswers = new CountDownLatch(1);
      BackgroundCall<Lease> last = BackgroundCall.start("holder-16", () -> client.lock("hot").acquire(WAIT));
      last.awaitBlocked(QUEUED);
      Lease leaving = held;
      BackgroundCall<LeaseState> release = BackgroundCall.start("release", () -> {
        leaving.close();
        return leaving.state();
      });
      await().atMost(PROMPTLY).until(() -> slow.keeps.get() == 1);

      time.advance(ttl.multipliedBy(5).dividedBy(6)); // the end of the validity, the watchdog's tick held back
      if (watchdogFirst) {
        engineTime.runHeldTasks();
      }
      slow.keepAnswers.countDown(); // the store's "kept", sent when the entry was valid, read after it ran out

      assertThat(release.result(PROMPTLY)).as("the leaving lease, its entry lost meanwhile").isEqualTo(LeaseState.LOST);
      engineTime.runHeldTasks();
      time.advance(Duration.ZERO); // the lost entry's release, in the background
      Lease next = last.result(PROMPTLY);
      assertThat(next.fencingToken()).as("the next holder's token, from the store").isGreaterThan(firstToken);
      assertThat(next.isHeld()).isTrue();
      next.close();
    }
  }

  /**
   * How many holders of one client shared the first grant, handed over from thread to thread (each waiting for the
   * key before the holder releases) until a lease came with another token, once another client had tried the key.
   */
  private int holdersOfTheFirstToken(LockOptions options) throws Exception {
    try (LockClient client = store.connect(options); LockClient other = store.connect(options)) {
      Lease held = client.lock("hot").acquire();
      assertThat(other.lock("hot").tryAcquire()).as("another client's try, while the first holds").isEmpty();
      long firstToken = held.fencingToken();
      int holders = 1;
      for (int i = 0; i < WATCHED && held.fencingToken() == firstToken; i++) {
        BackgroundCall<Lease> next = BackgroundCall.start("holder-" + i, () -> client.lock("hot").acquire(WAIT));
        next.awaitBlocked(QUEUED);
        held.close();
        held = next.result(PROMPTLY);
        holders += held.fencingToken() == firstToken ? 1 : 0;
      }
      held.close();
      return holders;
    }
  }
}
