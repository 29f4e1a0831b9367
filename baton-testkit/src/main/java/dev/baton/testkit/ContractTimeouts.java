package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockTimeoutException;
import dev.baton.LostReason;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Wait timeouts, hold timeouts and the watchdog that keeps a long holder alive. Part of the {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractTimeouts extends ContractGroup {
  ContractTimeouts(LockClientContract contract) {
    super(contract);
  }

  @Test
  @Timeout(30)
  void waitTimeoutLeavesNothingBehind() throws Exception {
    LockClient holder = newClient();
    LockClient waiter = newClient();
    try (Lease held = holder.lock(key).acquire(LONG_WAIT)) {
      assertThatThrownBy(() -> waiter.lock(key).acquire(Duration.ofMillis(300)))
          .isInstanceOf(LockTimeoutException.class)
          .hasMessageContaining(key);
      assertThat(entriesAtStore(key)).as("entries while the holder holds").isEqualTo(1);
      assertThat(held.isHeld()).as("the holder's lease").isTrue();
    }
    Optional<Lease> next = newClient().lock(key).tryAcquire();
    assertThat(next).as("a third client's tryAcquire after the release").isPresent();
    next.get().close();
    assertThat(entriesAtStore(key)).as("entries after the last release").isZero();
  }

  @Test
  @Timeout(30)
  void holdTimeoutFreesTheLockAndTellsTheHolder() throws Exception {
    RecordingLostListener lost = new RecordingLostListener();
    Lease first = newClient().lock(key)
        .acquire(baseOptions().toBuilder().waitTime(LONG_WAIT).holdTimeout(Duration.ofMillis(500)).build());
    first.onLost(lost);
    try (Lease second = newClient().lock(key).acquire(LONG_WAIT)) {
      assertThat(first.isHeld()).as("the expired lease once another holds the lock").isFalse();
      assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
      await().atMost(PROMPTLY).untilAsserted(() -> {
        assertThat(first.state()).isEqualTo(LeaseState.EXPIRED);
        assertThat(lost.reasons()).containsExactly(LostReason.HOLD_TIMEOUT);
      });
    }
  }

  /** The hold timeout is shorter than the ttl, so the lease starts unrenewed; the new end is past a ttl away. */
  @Test
  @Timeout(30)
  void extendHoldMovesTheHoldTimeoutOfAHeldLease() throws Exception {
    Duration hold = Duration.ofMillis(300);
    Duration extended = Duration.ofSeconds(2);
    RecordingLostListener lost = new RecordingLostListener();
    Lease lease = newClient().lock(key)
        .acquire(waitingWithTtl(SHORT_TTL).withHoldTimeout(hold));
    lease.onLost(lost);
    long extendedAt = System.nanoTime();
    assertThat(lease.extendHold(extended)).isTrue();

    DistributedLock contender = newClient().lock(key);
    await("the lease held and refused to another client past its first hold end and ttl")
        .during(SHORT_TTL.multipliedBy(2))
        .atMost(SHORT_TTL.multipliedBy(2).plus(PROMPTLY))
        .until(() -> lease.isHeld() && refuses(contender));
    try (Lease next = contender.acquire(LONG_WAIT)) {
      assertThat(Duration.ofNanos(System.nanoTime() - extendedAt)).as("taken over after").isGreaterThanOrEqualTo(extended);
      assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
      await().atMost(PROMPTLY).untilAsserted(() -> {
        assertThat(lease.state()).isEqualTo(LeaseState.EXPIRED);
        assertThat(lost.reasons()).containsExactly(LostReason.HOLD_TIMEOUT);
      });
      assertThat(lease.extendHold(extended)).as("extendHold once expired").isFalse();
    }
  }

  @Test
  @Timeout(30)
  void extendHoldNeedsAHoldTimeoutAValidDurationAndAHeldLease() throws Exception {
    LockClient client = newClient();
    try (Lease renewed = client.lock(key).acquire(LONG_WAIT)) {
      assertThat(renewed.holdRemaining()).as("the hold left of a lease renewed while held").isEmpty();
      assertThatThrownBy(() -> renewed.extendHold(Duration.ofSeconds(1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContainingAll(key, "withHoldTimeout");
    }
    Lease bounded = client.lock(key).acquire(baseOptions().withWaitTime(LONG_WAIT).withHoldTimeout(Duration.ofSeconds(20)));
    for (Duration bad : Arrays.asList(null, Duration.ZERO, Duration.ofMillis(-1), Duration.ofDays(366))) {
      assertThatThrownBy(() -> bounded.extendHold(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContainingAll("holdFor", String.valueOf(bad));
    }
    assertThat(bounded.isHeld()).as("the lease after the rejected calls").isTrue();
    assertThat(bounded.holdRemaining()).as("the hold left of a 20 s hold timeout").hasValueSatisfying(left ->
        assertThat(left).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(20)));
    assertThat(bounded.extendHold(Duration.ofHours(1))).isTrue();
    assertThat(bounded.holdRemaining()).as("the hold left once extended to an hour").hasValueSatisfying(left ->
        assertThat(left).isGreaterThan(Duration.ofMinutes(59)).isLessThanOrEqualTo(Duration.ofHours(1)));
    bounded.close();
    assertThat(bounded.holdRemaining()).as("the hold left once released").isEmpty();
    assertThat(bounded.extendHold(Duration.ofSeconds(1))).as("extendHold once released").isFalse();
    assertThat(entriesAtStore(key)).isZero();
  }

  @Test
  @Timeout(30)
  void watchdogKeepsALongHolderAlive() throws Exception {
    // Short enough that a watchdog that did not renew would lose the lease within the test, long enough that a
    // machine loaded by two suites at once (bin/test builds modules in parallel) does not miss every renewal.
    Duration ttl = Duration.ofMillis(600);
    Lease lease = newClient().lock(key).acquire(waitingWithTtl(ttl));
    DistributedLock contender = newClient().lock(key);
    await("the lease held and refused to another client for 5 ttls")
        .during(ttl.multipliedBy(5))
        .atMost(ttl.multipliedBy(5).plusSeconds(1))
        .until(() -> lease.isHeld() && refuses(contender));
    lease.close();
    Optional<Lease> next = contender.tryAcquire();
    assertThat(next).as("the contender's tryAcquire after the release").isPresent();
    next.get().close();
  }
}
