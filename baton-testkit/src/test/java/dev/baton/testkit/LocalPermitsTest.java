package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedSemaphore;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.testkit.memory.InMemoryStore;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A permit released while another thread of its client waits for one of the same semaphore is handed over to it, on
 * the in-memory store: the waiter holds with the permit's token, the store keeps as many entries as before, and a
 * permit given back with nobody waiting here goes back to the store.
 */
@Timeout(60)
class LocalPermitsTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final InMemoryStore store = InMemoryStore.create();

  @AfterEach
  void closeStore() {
    store.close();
  }

  @Test
  void aReleasedPermitGoesToTheNextLocalWaiterWithoutTheStore() throws Exception {
    try (LockClient client = store.connect(LockOptions.defaults())) {
      DistributedSemaphore slots = client.semaphore("slots", 2);
      Lease first = slots.acquire(WAIT);
      Lease second = slots.acquire(WAIT);
      BackgroundCall<Lease> third = BackgroundCall.start("third", () -> slots.acquire(WAIT));
      BackgroundCall<Lease> fourth = BackgroundCall.start("fourth", () -> slots.acquire(WAIT));
      third.awaitBlocked();
      fourth.awaitBlocked();

      first.close();
      await().atMost(WAIT).until(() -> third.isDone() || fourth.isDone());
      BackgroundCall<Lease> handedTo = third.isDone() ? third : fourth;
      BackgroundCall<Lease> atTheStore = handedTo == third ? fourth : third;
      Lease handed = handedTo.result(WAIT);
      assertThat(handed.fencingToken()).as("the permit handed over").isEqualTo(first.fencingToken());
      assertThat(client.status("slots").holders()).isEqualTo(2);
      assertThat(atTheStore.isDone()).as("the waiter at the store, with both permits held").isFalse();

      second.close();
      try (Lease fromTheStore = atTheStore.result(WAIT)) {
        assertThat(fromTheStore.fencingToken()).isGreaterThan(second.fencingToken());
      }
      handed.close();
      assertThat(store.entries("slots")).isZero();
    }
  }
}
