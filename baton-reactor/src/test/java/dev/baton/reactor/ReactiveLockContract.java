package dev.baton.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockTimeoutException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * What {@link ReactiveLocks} promises, on one store: each subclass connects two clients of its store, as two
 * processes of a service would.
 */
@Timeout(60)
abstract class ReactiveLockContract {
  static final Duration PROMPTLY = Duration.ofSeconds(10);

  LockClient client;
  LockClient other;
  String key;

  /** A new client of the store under test. */
  abstract LockClient connect();

  @BeforeEach
  void connectTwo() {
    client = connect();
    other = connect();
    key = "reactor-" + UUID.randomUUID();
  }

  @AfterEach
  void closeBoth() {
    client.close();
    other.close();
  }

  @Test
  void acquiresOnSubscriptionAndReleases() {
    Mono<Lease> acquire = ReactiveLocks.acquire(client.lock(key));
    assertThat(client.status(key).isHeld()).as("held before subscription").isFalse();

    AtomicReference<Lease> granted = new AtomicReference<>();
    StepVerifier.create(acquire)
        .assertNext(lease -> {
          granted.set(lease);
          assertThat(lease.isHeld()).isTrue();
          assertThat(lease.key()).isEqualTo(key);
        })
        .expectComplete()
        .verify(PROMPTLY);
    assertThat(other.status(key).ownerId()).contains(granted.get().ownerId());

    StepVerifier.create(ReactiveLeases.release(granted.get())).expectComplete().verify(PROMPTLY);
    assertThat(granted.get().isHeld()).isFalse();
    assertThat(other.status(key).isHeld()).isFalse();
  }

  @Test
  void counterStaysExactUnderFlatMapAcrossTwoClients() {
    int increments = 40;
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    AtomicInteger counter = new AtomicInteger();
    LockClient[] clients = {client, other};

    Flux<Integer> work = Flux.range(0, increments).flatMap(i -> ReactiveLocks.withLock(clients[i % 2].lock(key),
        lease -> Mono.fromCallable(() -> {
              mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
              return counter.get();
            })
            .delayElement(Duration.ofMillis(5))
            .map(read -> {
              counter.set(read + 1);
              inside.decrementAndGet();
              return read + 1;
            })), 8);

    StepVerifier.create(work).expectNextCount(increments).expectComplete().verify(Duration.ofSeconds(50));
    assertThat(counter.get()).isEqualTo(increments);
    assertThat(mostInside.get()).isEqualTo(1);
    assertThat(client.status(key).isHeld()).isFalse();
  }

  @Test
  void aWaitTimeThatPassesIsALockTimeoutError() throws Exception {
    try (Lease held = other.lock(key).acquire()) {
      StepVerifier.create(ReactiveLocks.acquire(client.lock(key), Duration.ofMillis(200)))
          .expectError(LockTimeoutException.class)
          .verify(PROMPTLY);
      StepVerifier.create(ReactiveLocks.withLock(client.lock(key), Duration.ZERO, lease -> Mono.just("ran")))
          .expectError(LockTimeoutException.class)
          .verify(PROMPTLY);
      assertThat(held.isHeld()).isTrue();
    }
    await().atMost(PROMPTLY).until(() -> client.status(key).waiters() == 0);
  }

  @Test
  void aCancelledWaitLeavesNoWaiterAndTakesNothingLater() throws Exception {
    Lease held = other.lock(key).acquire();
    StepVerifier.create(ReactiveLocks.acquire(client.lock(key)))
        .expectSubscription()
        .then(() -> await().atMost(PROMPTLY).until(() -> other.status(key).waiters() > 0))
        .thenCancel()
        .verify(PROMPTLY);

    await().atMost(PROMPTLY).until(() -> other.status(key).waiters() == 0);
    held.close();
    try (Lease next = other.lock(key).acquire(PROMPTLY)) {
      assertThat(next.isHeld()).isTrue();
    }
  }

  @Test
  void aLeaseGrantedAsTheWaitIsCancelledIsReleased() throws Exception {
    for (int round = 0; round < 20; round++) {
      Lease held = other.lock(key).acquire();
      AtomicReference<Lease> received = new AtomicReference<>();
      Disposable waiting = ReactiveLocks.acquire(client.lock(key)).doOnNext(received::set).subscribe();
      await().atMost(PROMPTLY).until(() -> other.status(key).waiters() > 0);
      held.close();
      waiting.dispose();
      // A lease emitted to the subscriber is the subscriber's to release, and a cancel may cross an emission under
      // way (Reactive Streams allows an onNext after cancel): it may arrive while the test waits. One granted after
      // the cancel and not emitted is the engine's, or Reactor's discard's.
      String round0 = "round " + round;
      await().atMost(PROMPTLY).untilAsserted(() -> {
        Lease emitted = received.getAndSet(null);
        if (emitted != null) {
          emitted.close();
        }
        assertThat(other.status(key)).as(round0)
            .matches(status -> !status.isHeld() && status.waiters() == 0, "free, without waiters");
      });
    }
  }

  @Test
  void aBodyCancelledAsItsLockIsGrantedReleasesIt() throws Exception {
    for (int round = 0; round < 20; round++) {
      Lease held = other.lock(key).acquire();
      Disposable waiting = ReactiveLocks.withLock(client.lock(key), lease -> Mono.never()).subscribe();
      await().atMost(PROMPTLY).until(() -> other.status(key).waiters() > 0);
      held.close();
      waiting.dispose();
      expectFreeWithoutWaiters("round " + round);
    }
  }

  private void expectFreeWithoutWaiters(String when) {
    await().atMost(PROMPTLY).untilAsserted(() -> assertThat(other.status(key)).as(when)
        .matches(status -> !status.isHeld() && status.waiters() == 0, "free, without waiters"));
  }

  @Test
  void anErrorOfTheBodyReleases() {
    AtomicReference<Lease> granted = new AtomicReference<>();
    StepVerifier.create(ReactiveLocks.withLock(client.lock(key), lease -> {
          granted.set(lease);
          return Mono.error(new IllegalStateException("the body failed"));
        }))
        .expectErrorMessage("the body failed")
        .verify(PROMPTLY);

    assertThat(granted.get().isHeld()).isFalse();
    assertThat(other.status(key).isHeld()).isFalse();
  }

  @Test
  void aCancelOfTheBodyReleases() {
    AtomicReference<Lease> granted = new AtomicReference<>();
    StepVerifier.create(ReactiveLocks.withLockMany(client.lock(key), lease -> {
          granted.set(lease);
          return Flux.concat(Flux.just("first"), Flux.never());
        }))
        .expectNext("first")
        .then(() -> assertThat(other.status(key).isHeld()).isTrue())
        .thenCancel()
        .verify(PROMPTLY);

    await().atMost(PROMPTLY).until(() -> !granted.get().isHeld() && !other.status(key).isHeld());
  }

  @Test
  void aFluxBodyRunsUnderTheLockAndReleasesOnComplete() {
    DistributedLock lock = client.lock(key);
    AtomicReference<String> completedOn = new AtomicReference<>();
    // The body asks the store who holds the lock, a blocking call: on a scheduler for blocking work, as users should.
    Flux<Boolean> holdingWhileRunning = ReactiveLocks.withLockMany(lock, Duration.ofSeconds(5),
            lease -> Flux.range(1, 3).publishOn(Schedulers.boundedElastic())
                .map(i -> other.status(key).ownerId().orElseThrow().equals(lease.ownerId())))
        .doOnComplete(() -> completedOn.set(Thread.currentThread().getName()));

    StepVerifier.create(holdingWhileRunning).expectNext(true, true, true).expectComplete().verify(PROMPTLY);
    assertThat(other.status(key).isHeld()).isFalse();
    assertThat(completedOn.get()).as("the release, then the completion, off the caller's thread")
        .startsWith("boundedElastic");
  }

  @Test
  void readersShareAndAWriterWaitsForThem() {
    Mono<String> reading = ReactiveLocks.withLock(client.readWriteLock(key).readLock(),
        read -> ReactiveLocks.withLock(other.readWriteLock(key).readLock(), Duration.ofSeconds(5),
            secondRead -> Mono.just("two readers")));
    StepVerifier.create(reading).expectNext("two readers").expectComplete().verify(PROMPTLY);

    Mono<String> blocked = ReactiveLocks.withLock(client.readWriteLock(key).readLock(),
        read -> ReactiveLocks.withLock(other.readWriteLock(key).writeLock(), Duration.ofMillis(200),
            write -> Mono.just("writer beside a reader")));
    StepVerifier.create(blocked).expectError(LockTimeoutException.class).verify(PROMPTLY);
    await().atMost(PROMPTLY).until(() -> !other.status(key).isHeld());
  }

  @Test
  void permitsAreCountedAndTheWaitTimeIsKept() {
    Mono<String> twoOfTwo = ReactiveSemaphores.withPermit(client.semaphore(key, 2),
        first -> ReactiveSemaphores.withPermit(other.semaphore(key, 2), Duration.ofSeconds(5),
            second -> ReactiveSemaphores.acquire(client.semaphore(key, 2), Duration.ofMillis(200))
                .map(third -> "a third permit")));
    StepVerifier.create(twoOfTwo).expectError(LockTimeoutException.class).verify(PROMPTLY);
    await().atMost(PROMPTLY).until(() -> !other.status(key).isHeld() && other.status(key).waiters() == 0);

    StepVerifier.create(ReactiveSemaphores.withPermitMany(client.semaphore(key, 2), Duration.ZERO,
            permit -> Flux.just(permit.isHeld())))
        .expectNext(true)
        .expectComplete()
        .verify(PROMPTLY);
    assertThat(other.status(key).isHeld()).isFalse();
  }
}
