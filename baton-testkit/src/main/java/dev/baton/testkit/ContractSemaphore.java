package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedSemaphore;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockStatus;
import dev.baton.LockTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * At most N permits held at once, each a lease with everything a mutex's has. Part of the {@link LockClientContract}:
 * it runs as a nested class of the backend's test.
 */
abstract class ContractSemaphore extends ContractGroup {
  ContractSemaphore(LockClientContract contract) {
    super(contract);
  }

  @BeforeEach
  final void onlyWhereSharedEntriesAreTaken() {
    assumeSharedEntries();
  }

  @Test
  @Timeout(30)
  void permitsAreHeldUpToTheirNumberAndAWaiterGetsOneThatIsFreed() throws Exception {
    DistributedSemaphore mine = newClient().semaphore(key, 2);
    DistributedSemaphore others = newClient().semaphore(key, 2);
    Lease first = mine.acquire(LONG_WAIT);
    Lease second = others.acquire(LONG_WAIT);
    assertThat(others.tryAcquire()).as("a third permit of two").isEmpty();
    BackgroundCall<Lease> waiter = BackgroundCall.start("permit-waiter", () -> others.acquire(LONG_WAIT));
    waiter.awaitBlocked();

    first.close();
    try (Lease third = waiter.result(PROMPTLY)) {
      assertThat(third.fencingToken()).isGreaterThan(second.fencingToken()).isGreaterThan(first.fencingToken());
      assertThat(mine.tryAcquire()).isEmpty();
    }
    second.close();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  @Test
  @Timeout(30)
  void statusCountsThePermitsHeldAndTheirNumber() throws Exception {
    Lease first = newClient().semaphore(key, 3).acquire(LONG_WAIT);
    Lease second = newClient().semaphore(key, 3).acquire(LONG_WAIT);
    LockClient observer = newClient();

    LockStatus status = observer.status(key);
    assertThat(status.mode()).as("%s", status).contains(LockStatus.Mode.PERMITS);
    assertThat(status.holders()).as("%s", status).isEqualTo(2);
    assertThat(status.permits()).as("%s", status).hasValue(3);
    assertThat(status.fencingToken()).as("the oldest holder's").hasValue(first.fencingToken());
    assertThat(observer.list(key, 1)).singleElement().satisfies(listed -> {
      assertThat(listed.holders()).isEqualTo(2);
      assertThat(listed.permits()).hasValue(3);
    });
    first.close();
    assertThat(observer.status(key).holders()).isEqualTo(1);
    second.close();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  @Test
  @Timeout(60)
  void neverMoreHoldersThanPermitsAndTheyDoOverlap() throws Exception {
    int permits = 3;
    SharedHoldChecker checker = new SharedHoldChecker();
    List<BackgroundCall<Void>> workers = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      DistributedSemaphore semaphore = newClient().semaphore(key, permits);
      for (int t = 0; t < 3; t++) {
        workers.add(BackgroundCall.start("permit-" + c + "-" + t, () -> {
          for (int i = 0; i < 15; i++) {
            try (Lease permit = semaphore.acquire()) {
              checker.sharedSection();
            }
          }
          return null;
        }));
      }
    }
    awaitAll(workers, Duration.ofSeconds(50));

    assertThat(checker.mostSharedAtOnce()).as("permit holders at once").isBetween(2, permits);
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  @Test
  @Timeout(30)
  void aCrashedHoldersPermitIsFreedWithinItsTtl() throws Exception {
    LockClient crashing = newCrashableClient();
    Lease abandoned = crashing.semaphore(key, 1, waitingWithTtl(SHORT_TTL)).acquire();
    DistributedSemaphore semaphore = newClient().semaphore(key, 1);
    long crashedAt = System.nanoTime();
    crash(crashing);
    try (Lease next = semaphore.acquire(LONG_WAIT)) {
      assertFreedWithinBound(crashedAt, SHORT_TTL);
      assertThat(next.fencingToken()).isGreaterThan(abandoned.fencingToken());
    }
  }

  @Test
  @Timeout(30)
  void aWaitThatTimesOutLeavesNothingBehind() throws Exception {
    LockClient client = newClient();
    Lease held = newClient().semaphore(key, 1).acquire(LONG_WAIT);

    assertThatThrownBy(() -> client.semaphore(key, 1).acquire(Duration.ofMillis(300)))
        .isInstanceOf(LockTimeoutException.class).hasMessageContaining(key);
    held.close();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0 && client.keysInUse() == 0);
  }

  @Test
  @Timeout(30)
  void clientsThatDisagreeOnThePermitsGetAClearErrorAndNeverAnExtraPermit() throws Exception {
    Lease held = newClient().semaphore(key, 1).acquire(LONG_WAIT);
    DistributedSemaphore more = newClient().semaphore(key, 2);

    assertThatThrownBy(more::tryAcquire).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key).hasMessageContaining("1 permit").hasMessageContaining("asks for 2");
    assertThatThrownBy(() -> more.acquire(LONG_WAIT)).isInstanceOf(IllegalArgumentException.class);
    held.close();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
    try (Lease once = more.acquire(LONG_WAIT)) {
      assertThat(once.isHeld()).as("two permits, once no client counts one").isTrue();
    }
  }

  @Test
  void aSemaphoreNeedsAPermit() {
    LockClient client = newClient();
    assertThatThrownBy(() -> client.semaphore(key, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key).hasMessageContaining("0");
  }
}
