package dev.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LostReason;
import dev.baton.Primitive;
import dev.baton.engine.memory.MemoryStore;
import dev.baton.memory.FakeTicker;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.ClientFactory;
import dev.baton.spi.LockBackend;
import dev.baton.spi.QueueRule;
import dev.baton.spi.Ticker;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A lease lost while its holder hands the entry over (HeldEntry.handOver, between putting the successor in the leaving
 * lease's place and LocalQueue.handOver): the loss reaches the successor, which passes the key's turn on, and the
 * first local waiter takes that turn and goes to the store. The hand-over must then not give the successor, lost
 * already, to the next waiter: its acquire would return a lease that was never held while the first waiter holds the
 * key (it did, before the hand-over checked that the entry lasts). The loss is
 * the store telling the client that every entry of it is gone (a ZooKeeper session expired, say), delivered while the
 * releasing thread is held in the store's {@link LockBackend#rewritesHolders}, the one call between the two steps.
 *
 * <p>And a lease lost after the hand-over gave it to a waiter, before that waiter woke to take it (blocking or
 * asynchronous): the waiter must not return it, but queue for the turn again.
 */
@Timeout(30)
class HandoverLossTest {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration LONG_WAIT = Duration.ofSeconds(20);
  private static final Duration PARKED = Duration.ofMillis(100);
  private static final Duration PROMPTLY = Duration.ofSeconds(10);
  private static final Duration HELD_WAIT_LOOKS_EVERY = Duration.ofMillis(1);
  /** The client's acquire threads, which run the steps of asynchronous acquisitions. */
  private static final int ACQUIRE_THREADS = 4;

  private final MemoryStore store = MemoryStore.create("handover-loss-" + UUID.randomUUID(), null);
  private final LockOptions options = LockOptions.builder().ttl(TTL).build();
  private final String key = "handover-loss/" + UUID.randomUUID();
  private final Pauses pauses = new Pauses(store.newBackend());
  private final LockClient client = ClientFactory.newClient(pauses.backend, options);

  @AfterEach
  void closeAll() {
    pauses.resume.countDown();
    client.close();
    store.close();
  }

  @Test
  void aLeaseLostWhileItIsHandedOverIsNotHandedToAWaiter() throws Exception {
    Lease holder = client.lock(key).acquire();
    BackgroundCall<Lease> first = BackgroundCall.start("first-waiter", () -> client.lock(key).acquire(LONG_WAIT));
    first.awaitBlocked(PARKED);
    BackgroundCall<Lease> second = BackgroundCall.start("second-waiter", () -> client.lock(key).acquire(LONG_WAIT));
    second.awaitBlocked(PARKED);

    pauses.pauseHandovers = true;
    BackgroundCall<Boolean> releasing = BackgroundCall.start("releasing", () -> {
      holder.close();
      return true;
    });
    assertThat(pauses.paused.await(PROMPTLY.toSeconds(), TimeUnit.SECONDS)).as("the hand-over under way").isTrue();
    store.removeHolder(key);
    pauses.allLost();
    Lease firstLease = first.result(PROMPTLY);
    assertThat(firstLease.isHeld()).as("the first waiter, with the turn the loss passed on, took the key").isTrue();
    pauses.resume.countDown();
    releasing.result(PROMPTLY);

    second.awaitBlocked(PARKED);
    assertThat(second.isDone()).as("the second waiter waits while the first holds: it was not handed the lost lease")
        .isFalse();
    firstLease.close();
    Lease handed = second.result(PROMPTLY);
    assertThat(handed.isHeld()).isTrue();
    assertThat(handed.fencingToken()).isGreaterThanOrEqualTo(firstLease.fencingToken());
  }

  /**
   * A loss that lands after the hand-over gave the successor to the waiter and before the waiter woke to take it (the
   * waiter's thread is held in its wait, its queue's lock let go, as a thread descheduled as it wakes would be): the
   * loss passed the key's turn on and let go of the key, so the waiter holds nothing. Its acquire must not return the
   * lost lease, but queue again for the turn and take the key at the store.
   */
  @Test
  void aLeaseLostBeforeItsWaiterWokeIsNotReturnedByTheAcquire() throws Exception {
    WaitHoldingTicker time = new WaitHoldingTicker(new FakeTicker(), "taking-waiter");
    Pauses lossy = new Pauses(store.newBackend());
    try (LockClient onFakeTime = ClientFactory.newClient(lossy.backend, options, time)) {
      Lease holder = onFakeTime.lock(key).acquire();
      BackgroundCall<Lease> waiter =
          BackgroundCall.start("taking-waiter", () -> onFakeTime.lock(key).acquire(LONG_WAIT));
      assertThat(time.held.await(PROMPTLY.toSeconds(), TimeUnit.SECONDS)).as("the waiter waits, held").isTrue();

      holder.close();
      assertThat(lossy.backend.status(key).isHeld()).as("handed over: the entry stays at the store").isTrue();
      store.removeHolder(key);
      lossy.allLost();
      time.letWaitsGo();

      Lease taken = waiter.result(PROMPTLY);
      assertThat(taken.isHeld()).as("the waiter queued again and took the key at the store").isTrue();
      assertThat(lossy.backend.status(key).isHeld()).isTrue();
      taken.close();
    }
  }

  /**
   * The same for an asynchronous waiter: the step that takes the lease handed over waits behind the client's four
   * acquire threads, each held in the store's {@link LockBackend#newAttempt} by an acquisition of another key, and the
   * loss lands meanwhile. The waiter must register for the turn again and take the key at the store.
   */
  @Test
  void aLeaseLostBeforeItsAsynchronousWaiterTookItIsNotTheAcquiresOutcome() throws Exception {
    Pauses lossy = new Pauses(store.newBackend());
    Engine engine = new Engine(lossy.backend, "handover-loss-async", new FakeTicker());
    try {
      LockOptions waiting = LockOptions.builder().ttl(TTL).waitTime(LONG_WAIT).build();
      EngineLease holder = engine.acquire(key, QueueRule.EXCLUSIVE, Primitive.LOCK, options, false);
      CompletableFuture<Lease> waiter = engine.acquireAsync(key, QueueRule.EXCLUSIVE, Primitive.LOCK, waiting);
      await("the waiter registered for the turn").atMost(PROMPTLY).until(() -> hasWaiter(engine, key));
      lossy.pauseAttemptsUnder = "busy/";
      for (int i = 0; i < ACQUIRE_THREADS; i++) {
        engine.acquireAsync("busy/" + i + "/" + UUID.randomUUID(), QueueRule.EXCLUSIVE, Primitive.LOCK, waiting);
      }
      assertThat(lossy.attemptsPaused.await(PROMPTLY.toSeconds(), TimeUnit.SECONDS))
          .as("every acquire thread held").isTrue();

      holder.close();
      assertThat(lossy.backend.status(key).isHeld()).as("handed over: the entry stays at the store").isTrue();
      store.removeHolder(key);
      lossy.allLost();
      lossy.attemptsGo.countDown();

      Lease taken = waiter.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
      assertThat(taken.isHeld()).as("the waiter registered again and took the key at the store").isTrue();
      taken.close();
    } finally {
      lossy.attemptsGo.countDown();
      engine.close();
    }
  }

  private static boolean hasWaiter(Engine engine, String key) {
    LocalQueue queue = engine.keys().retain(key, 1);
    try {
      return queue.hasWaiter();
    } finally {
      engine.keys().release(key);
    }
  }

  /**
   * Fake time whose waits on the thread named {@code heldThread} do not return while held (they wait on, letting the
   * condition's lock go), from that thread's first wait until {@link #letWaitsGo}.
   */
  private static final class WaitHoldingTicker implements Ticker {
    private final FakeTicker time;
    private final String heldThread;
    private volatile boolean holding = true;
    final CountDownLatch held = new CountDownLatch(1);

    WaitHoldingTicker(FakeTicker time, String heldThread) {
      this.time = time;
      this.heldThread = heldThread;
    }

    void letWaitsGo() {
      holding = false;
    }

    @Override
    public long read() {
      return time.read();
    }

    @Override
    public long awaitNanos(Condition condition, long nanos) throws InterruptedException {
      if (Thread.currentThread().getName().equals(heldThread)) {
        held.countDown();
        while (holding) {
          condition.awaitNanos(HELD_WAIT_LOOKS_EVERY.toNanos());
        }
      }
      return time.awaitNanos(condition, nanos);
    }

    @Override
    public void schedule(Runnable task, long delayNanos) {
      time.schedule(task, delayNanos);
    }
  }

  /**
   * A {@link CountingBackend} over the store whose hooks hold the releasing thread as a hand-over asks whether records
   * can be rewritten (the one store call between its two steps), or the acquire threads as they make attempts at keys
   * under a prefix, until the test lets them go.
   */
  private static final class Pauses {
    final CountingBackend backend;
    volatile boolean pauseHandovers;
    final CountDownLatch paused = new CountDownLatch(1);
    final CountDownLatch resume = new CountDownLatch(1);
    /** While set, each attempt at a key under it waits, counted in {@link #attemptsPaused}, until attemptsGo opens. */
    volatile String pauseAttemptsUnder;
    final CountDownLatch attemptsPaused = new CountDownLatch(ACQUIRE_THREADS);
    final CountDownLatch attemptsGo = new CountDownLatch(1);

    Pauses(LockBackend store) {
      backend = new CountingBackend(store);
      backend.askingRewrites = this::atHandover;
      backend.attempting = this::atAttempt;
    }

    void allLost() {
      backend.losses.allLost(LostReason.ENTRY_REMOVED);
    }

    private void atHandover() {
      if (pauseHandovers) {
        pauseHandovers = false;
        paused.countDown();
        awaitQuietly(resume);
      }
    }

    private void atAttempt(AcquireRequest request) {
      String under = pauseAttemptsUnder;
      if (under != null && request.key().startsWith(under)) {
        attemptsPaused.countDown();
        awaitQuietly(attemptsGo);
      }
    }

    private static void awaitQuietly(CountDownLatch latch) {
      try {
        latch.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
