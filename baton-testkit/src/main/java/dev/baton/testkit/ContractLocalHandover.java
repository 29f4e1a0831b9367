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
}
