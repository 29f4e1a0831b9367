package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A release hands the lock to the next thread of the same client without the store, a bounded number of times in a row. Part of the {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractLocalHandover extends ContractGroup {
  ContractLocalHandover(LockClientContract contract) {
    super(contract);
  }

  @Test
  @Timeout(30)
  void aReleaseHandsTheLockToTheNextThreadOfTheClientWithoutTheStore() throws Exception {
    LockClient client = newClient();
    Lease first = client.lock(key).acquire(LONG_WAIT);
    BackgroundCall<Lease> next = BackgroundCall.start("next-holder", () -> client.lock(key).acquire(LONG_WAIT));
    next.awaitBlocked();

    first.close();
    Lease second = next.result(PROMPTLY);

    assertThat(first.state()).isEqualTo(LeaseState.RELEASED);
    assertThat(second.isHeld()).isTrue();
    assertThat(second.fencingToken()).as("the token of the entry handed over").isEqualTo(first.fencingToken());
    assertThat(client.status(key).ownerId()).contains(second.ownerId());
    assertThat(newClient().lock(key).tryAcquire()).as("another client's try").isEmpty();
    second.close();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  @Test
  @Timeout(60)
  void handoversAreBoundedThenTheLockGoesBackToTheStoreWhenAnotherClientWantsIt() throws Exception {
    LockClient client = newClient();
    Lease held = client.lock(key).acquire(LONG_WAIT);
    long firstToken = held.fencingToken();
    // Another client has waited for this holding (a store may keep the entry for the chain if no one did).
    assertThatThrownBy(() -> newClient().lock(key).acquire(Duration.ofMillis(50))).isInstanceOf(LockTimeoutException.class);
    Chain chain = handOverUntilTheTokenChanges(client, key, held, HANDOVERS_WATCHED);
    assertThat(chain.holders()).as("holders of the first token: handed over locally, a bounded number of times")
        .isGreaterThan(1).isLessThan(HANDOVERS_WATCHED);
    assertThat(chain.last().fencingToken()).as("the token after the last handover").isGreaterThan(firstToken);
    chain.last().close();
  }

  @Test
  @Timeout(30)
  void aWaiterWithAHoldTimeoutTakesNoLeaseOverAndGetsItsOwnGrant() throws Exception {
    LockClient client = newClient();
    Lease first = client.lock(key).acquire(LONG_WAIT);
    LockOptions withHoldTimeout = baseOptions().withWaitTime(LONG_WAIT).withHoldTimeout(Duration.ofSeconds(20));
    BackgroundCall<Lease> next = BackgroundCall.start("bounded-holder", () -> client.lock(key).acquire(withHoldTimeout));
    next.awaitBlocked();

    first.close();
    try (Lease second = next.result(PROMPTLY)) {
      assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
      assertThat(second.ownerId()).isNotEqualTo(first.ownerId());
    }
  }

  /**
   * Eight threads of one client on one key hand it over and release it at the store as fast as they can. A holder
   * that hands the entry over holds nothing from then on, however soon its successor lets go: each lease ends
   * released, never found gone at the store (a second release of an entry could remove the entry the key's next
   * acquisition wrote under the same name), and no two threads hold at once.
   */
  @Test
  @Timeout(60)
  void aHotKeyHandedOverAndReleasedAtOnceEndsEveryLeaseOnce() throws Exception {
    LockClient client = newClient();
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger notReleased = new AtomicInteger();
    int[] counter = {0};
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> loops = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        loops.add(threads.submit(() -> {
          int cycles = 0;
          while (System.nanoTime() - end < 0) {
            Lease lease = client.lock(key).acquire(LONG_WAIT);
            if (inside.incrementAndGet() != 1) {
              overlaps.incrementAndGet();
            }
            int read = counter[0];
            counter[0] = read + 1;
            inside.decrementAndGet();
            lease.close();
            if (lease.state() != LeaseState.RELEASED) {
              notReleased.incrementAndGet();
            }
            cycles++;
          }
          return cycles;
        }));
      }
      int cycles = 0;
      for (Future<Integer> loop : loops) {
        cycles += loop.get(LONG_WAIT.toMillis() + 10_000, TimeUnit.MILLISECONDS);
      }
      assertThat(overlaps.get()).as("threads that held at once").isZero();
      assertThat(notReleased.get()).as("leases that ended otherwise than released").isZero();
      assertThat(counter[0]).as("the counter, updated under the lock").isEqualTo(cycles);
    } finally {
      threads.shutdownNow();
    }
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }
}
