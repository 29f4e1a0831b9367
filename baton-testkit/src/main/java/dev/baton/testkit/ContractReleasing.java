package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LostReason;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Releasing a lease, and closing the client that holds or waits for locks. Part of the {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractReleasing extends ContractGroup {
  ContractReleasing(LockClientContract contract) {
    super(contract);
  }

  @Test
  @Timeout(30)
  void leaseIsReleasedFromAnyThreadOnce() throws Exception {
    RecordingLostListener before = new RecordingLostListener();
    RecordingLostListener after = new RecordingLostListener();
    Lease lease = newClient().lock(key).acquire(LONG_WAIT);
    lease.onLost(before);
    BackgroundCall.start("releaser", () -> {
      lease.close();
      return null;
    }).result(PROMPTLY);
    assertThat(lease.state()).isEqualTo(LeaseState.RELEASED);
    assertThat(lease.isHeld()).isFalse();
    lease.close();
    assertThat(lease.state()).isEqualTo(LeaseState.RELEASED);
    lease.onLost(after);
    Optional<Lease> next = newClient().lock(key).tryAcquire();
    assertThat(next).as("another client's tryAcquire after the release").isPresent();
    next.get().close();
    await("no lost-lock calls after a release").during(A_WHILE).atMost(PROMPTLY)
        .until(() -> before.reasons().isEmpty() && after.reasons().isEmpty());
  }

  /**
   * The Lock methods' unlock() may return before the store has answered its release (LockBackend.releaseInOrder), and
   * a multi-lock's release sends its keys' releases together: what this process sees from then on is still what an
   * answered release shows. Right after each unlock(), the key reads free and is granted to a single try, through
   * another client of the process (another connection) and through the same client from another thread.
   */
  @Test
  @Timeout(60)
  void aKeyUnlockedIsFreeAtOnceForEveryClientOfTheProcess() throws Exception {
    LockClient client = newClient();
    LockClient other = newClient();
    DistributedLock mine = client.lock(key);
    List<String> both = List.of(key, key + "/second");
    DistributedLock multi = client.multiLock(both);
    for (int round = 0; round < 20; round++) {
      mine.lock();
      mine.unlock();
      assertThat(other.status(key).isHeld()).as("another client's status after unlock %d", round).isFalse();
      mine.lock();
      mine.unlock();
      assertThat(client.status(key).isHeld()).as("the same client's status after unlock %d", round).isFalse();
      mine.lock();
      mine.unlock();
      assertThat(refuses(other.lock(key))).as("another client's try after unlock %d", round).isFalse();
      mine.lock();
      mine.unlock();
      assertThat(BackgroundCall.start("same-client", () -> refuses(client.lock(key))).result(PROMPTLY))
          .as("a try of the same client from another thread after unlock %d", round).isFalse();
      multi.lock();
      multi.unlock();
      assertThat(refuses(other.multiLock(both))).as("another client's try of both keys after unlock %d", round)
          .isFalse();
      try (Lease lease = multi.acquire(LONG_WAIT)) {
        assertThat(lease.isHeld()).isTrue();
      }
      assertThat(other.status(key + "/second").isHeld()).as("the second key's status after close %d", round)
          .isFalse();
    }
  }

  @Test
  @Timeout(30)
  void closingTheClientReleasesItsLocks() throws Exception {
    LockClient closing = newClient();
    RecordingLostListener lost = new RecordingLostListener();
    Lease lease = closing.lock(key).acquire(LONG_WAIT);
    lease.onLost(lost);
    closing.close();
    Optional<Lease> next = newClient().lock(key).tryAcquire();
    assertThat(next).as("another client's tryAcquire after the close").isPresent();
    next.get().close();
    assertThat(lease.state()).isEqualTo(LeaseState.RELEASED);
    assertThat(lease.isHeld()).isFalse();
    await().atMost(PROMPTLY)
        .untilAsserted(() -> assertThat(lost.reasons()).containsExactly(LostReason.CLIENT_CLOSED));
    closing.close();
  }

  @Test
  @Timeout(30)
  void closedClientRefusesWork() {
    LockClient closed = newClient();
    DistributedLock handle = closed.lock(key);
    closed.close();
    assertThatThrownBy(() -> closed.lock(key + "/other"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageFindingMatch("(?i)closed");
    assertThatThrownBy(() -> handle.acquire(Duration.ofSeconds(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageFindingMatch("(?i)closed");
    assertThatThrownBy(() -> closed.list("", 10))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageFindingMatch("(?i)closed");
  }

  @Test
  @Timeout(30)
  void closingTheClientFailsItsWaiters() throws Exception {
    LockClient closing = newClient();
    try (Lease held = newClient().lock(key).acquire(LONG_WAIT)) {
      BackgroundCall<Lease> call = BackgroundCall.start("waiter-of-closed-client",
          () -> closing.lock(key).acquire(Duration.ofSeconds(20)));
      call.awaitBlocked();
      closing.close();
      assertThat(call.failure(PROMPTLY)).isInstanceOf(IllegalStateException.class);
      await("the closed client's waiter gone from the store").atMost(PROMPTLY)
          .until(() -> entriesAtStore(key) == 1);
      assertThat(held.isHeld()).as("the holder's lease").isTrue();
    }
    assertThat(entriesAtStore(key)).isZero();
  }
}
