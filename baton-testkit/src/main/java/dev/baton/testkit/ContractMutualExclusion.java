package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One holder at a time, whatever options the clients use, and fencing tokens that grow with every acquisition. Part of the {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractMutualExclusion extends ContractGroup {
  ContractMutualExclusion(LockClientContract contract) {
    super(contract);
  }

  @Test
  @Timeout(30)
  void onlyOneHolderAtATime() throws Exception {
    List<DistributedLock> locks = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      locks.add(newClient().lock(key));
    }
    contend("contender", locks, 4, 25, Duration.ofSeconds(25));
  }

  /**
   * Clients that disagree on a key's options (fair or not, ttl, hold timeout) still exclude each other: the options
   * choose how a client waits, never a second lock beside the first.
   */
  @Test
  @Timeout(60)
  void clientsThatDisagreeOnTheOptionsExcludeEachOther() throws Exception {
    Duration wait = Duration.ofSeconds(40);
    List<LockOptions> mix = List.of(
        baseOptions().toBuilder().waitTime(wait).fair(true).build(),
        baseOptions().toBuilder().waitTime(wait).fair(false).build(),
        baseOptions().toBuilder().waitTime(wait).fair(true).ttl(Duration.ofSeconds(2)).holdTimeout(Duration.ofSeconds(20)).build(),
        baseOptions().toBuilder().waitTime(wait).fair(false).ttl(Duration.ofSeconds(5)).holdTimeout(Duration.ofSeconds(3)).build());
    List<DistributedLock> locks = new ArrayList<>();
    for (LockOptions options : mix) {
      locks.add(newClient().lock(key, options));
    }
    contend("mixed-contender", locks, 3, 20, Duration.ofSeconds(50));
  }

  /** A fair holder refuses a non-fair try and a non-fair holder a fair one; each waiter gets the lock once it is free. */
  @Test
  @Timeout(30)
  void fairAndNonFairHoldersExcludeEachOther() throws Exception {
    LockOptions fair = baseOptions().toBuilder().fair(true).build();
    LockOptions nonFair = baseOptions().toBuilder().fair(false).build();
    for (List<LockOptions> order : List.of(List.of(fair, nonFair), List.of(nonFair, fair))) {
      String which = (order.get(0).fair() ? "fair" : "non-fair") + " holder, " + (order.get(1).fair() ? "fair" : "non-fair") + " other";
      DistributedLock holding = newClient().lock(key, order.get(0));
      DistributedLock other = newClient().lock(key, order.get(1));
      Lease held = holding.acquire(LONG_WAIT);
      assertThat(other.tryLock()).as("tryLock, %s", which).isFalse();
      assertThat(other.tryAcquire()).as("tryAcquire, %s", which).isEmpty();
      BackgroundCall<Lease> waiter = BackgroundCall.start("other-waiter", () -> other.acquire(LONG_WAIT));
      waiter.awaitBlocked();
      assertThat(held.isHeld()).as("the holder's lease, %s", which).isTrue();

      held.close();
      try (Lease next = waiter.result(PROMPTLY)) {
        assertThat(next.fencingToken()).as("the waiter's token, %s", which).isGreaterThan(held.fencingToken());
        assertThat(holding.tryAcquire()).as("the first client's try while the other holds, %s", which).isEmpty();
        assertThat(newClient().status(key).ownerId()).as("the owner in the status, %s", which).contains(next.ownerId());
      }
      await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
    }
  }

  @Test
  @Timeout(30)
  void fencingTokensGrowWithEveryAcquisition() throws Exception {
    List<DistributedLock> locks = List.of(newClient().lock(key), newClient().lock(key), newClient().lock(key));
    List<Long> tokens = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      try (Lease lease = locks.get(i / 2 % locks.size()).acquire(LONG_WAIT)) {
        tokens.add(lease.fencingToken());
      }
    }
    assertStrictlyIncreasing(tokens);
  }

  /** One thread per client, so that every grant is an acquisition at the store rather than a local handoff. */
  @Test
  @Timeout(30)
  void fencingTokensGrowInGrantOrderUnderContention() throws Exception {
    List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
    List<BackgroundCall<Void>> workers = new ArrayList<>();
    for (int c = 0; c < 3; c++) {
      DistributedLock lock = newClient().lock(key);
      workers.add(BackgroundCall.start("token-recorder-" + c, () -> {
        for (int i = 0; i < 10; i++) {
          try (Lease lease = lock.acquire(LONG_WAIT)) {
            tokens.add(lease.fencingToken());
          }
        }
        return null;
      }));
    }
    awaitAll(workers, Duration.ofSeconds(25));
    assertThat(tokens).hasSize(30);
    assertStrictlyIncreasing(tokens);
  }
}
