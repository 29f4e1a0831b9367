package dev.baton.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LostReason;
import dev.baton.memory.MemoryLockClient;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/** Leadership terms as a Flux, on the in-memory store. */
@Timeout(30)
class ReactiveLeadershipTest {
  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  private final String store = "memory://reactor-" + UUID.randomUUID();
  private LockClient first;
  private LockClient second;
  private final String key = "leader-" + UUID.randomUUID();

  @BeforeEach
  void connect() {
    first = MemoryLockClient.connect(store);
    second = MemoryLockClient.connect(store);
  }

  @AfterEach
  void close() {
    first.close();
    second.close();
  }

  @Test
  void standsOnSubscriptionAndResignsOnCancel() {
    Flux<Lease> firstTerms = ReactiveLeadership.terms(first, key);
    assertThat(first.status(key).isHeld()).as("standing before subscription").isFalse();

    AtomicReference<Lease> firstTerm = new AtomicReference<>();
    Disposable leading = firstTerms.subscribe(firstTerm::set);
    await().atMost(PROMPTLY).until(() -> firstTerm.get() != null);
    assertThat(first.status(key).ownerId()).contains(firstTerm.get().ownerId());

    StepVerifier.create(ReactiveLeadership.terms(second, key))
        .expectSubscription()
        .then(() -> await().atMost(PROMPTLY).until(() -> second.status(key).waiters() == 1))
        .then(leading::dispose)
        .assertNext(term -> assertThat(term.isHeld()).isTrue())
        .thenCancel()
        .verify(PROMPTLY);

    assertThat(firstTerm.get().isHeld()).isFalse();
    await().atMost(PROMPTLY).until(() -> !first.status(key).isHeld() && first.status(key).waiters() == 0);
  }

  @Test
  void runsTheBodyAgainInTheNextTermAfterALoss() {
    LockClient expiring = MemoryLockClient.connect(store, LockOptions.defaults().withHoldTimeout(Duration.ofMillis(300)));
    AtomicInteger runs = new AtomicInteger();
    AtomicInteger cancels = new AtomicInteger();
    AtomicReference<LostReason> lost = new AtomicReference<>();
    try (expiring) {
      Disposable leading = ReactiveLeadership.whileLeading(expiring, key, term -> {
            runs.incrementAndGet();
            ReactiveLeases.lost(term).subscribe(lost::set);
            return Flux.never().doOnCancel(cancels::incrementAndGet);
          })
          .subscribe();

      await().atMost(PROMPTLY).until(() -> runs.get() >= 2);
      assertThat(cancels.get()).isGreaterThanOrEqualTo(1);
      assertThat(lost.get()).isEqualTo(LostReason.HOLD_TIMEOUT);
      leading.dispose();
      await().atMost(PROMPTLY).until(() -> !first.status(key).isHeld() && first.status(key).waiters() == 0);
    }
  }

  @Test
  void leadersFollowWhoLeadsWithoutStandingAndStopOnCancel() {
    AtomicReference<Lease> term = new AtomicReference<>();
    AtomicReference<Disposable> leading = new AtomicReference<>();
    StepVerifier.create(ReactiveLeadership.leaders(second, key))
        .expectNext(Optional.empty())
        .then(() -> leading.set(ReactiveLeadership.terms(first, key).subscribe(term::set)))
        .assertNext(leader -> {
          await().atMost(PROMPTLY).until(() -> term.get() != null);
          assertThat(leader).hasValueSatisfying(l -> assertThat(l.fencingToken()).hasValue(term.get().fencingToken()));
        })
        .then(() -> leading.get().dispose())
        .expectNext(Optional.empty())
        .thenCancel()
        .verify(PROMPTLY);
    assertThat(second.status(key).isHeld()).as("the watcher never stood").isFalse();
  }
}
