package dev.baton.testkit;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockLostException;
import dev.baton.LockObserver;
import dev.baton.Primitive;
import dev.baton.LockOptions;
import dev.baton.LostReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A crashed holder blocks others only until its ttl; a lost lock is reported once, and a lease ends once. Part of the {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractCrashesAndLosses extends ContractGroup {
  ContractCrashesAndLosses(LockClientContract contract) {
    super(contract);
  }

  @Test
  @Timeout(30)
  void crashedHolderBlocksOthersOnlyUntilItsTtl() throws Exception {
    LockClient crashing = newCrashableClient();
    Lease abandoned = crashing.lock(key).acquire(waitingWithTtl(SHORT_TTL));
    DistributedLock lock = newClient().lock(key); // connected before the crash: only the store's wait is timed
    Crash crashed = crashingNow();
    crash(crashing);
    try (Lease next = lock.acquire(LONG_WAIT)) {
      assertFreedWithinBound(crashed, SHORT_TTL);
      assertThat(next.fencingToken()).isGreaterThan(abandoned.fencingToken());
    }
  }

  @Test
  @Timeout(30)
  void killedHolderJvmBlocksOthersOnlyUntilItsTtl() throws Exception {
    assumeTrue(reachableFromOtherProcesses(), "the store lives in this JVM");
    ChildJvm child = ChildJvm.holdingLock(factoryClass(), target(), key, CHILD_TTL);
    children.add(child);
    DistributedLock lock = newClient().lock(key);
    assertThat(lock.tryAcquire()).as("tryAcquire while the child JVM holds the lock").isEmpty();
    Crash killed = crashingNow();
    child.kill();
    try (Lease next = lock.acquire(LONG_WAIT)) {
      assertFreedWithinBound(killed, CHILD_TTL);
      assertThat(next.fencingToken()).isGreaterThan(child.fencingToken());
    }
  }

  @Test
  @Timeout(30)
  void removedEntryIsReportedOnce() throws Exception {
    RecordingLostListener lost = new RecordingLostListener();
    Lease lease = newClient().lock(key).acquire(waitingWithTtl(SHORT_TTL));
    lease.onLost(lost);
    removeEntryBehindOurBack(key);
    await().atMost(PROMPTLY)
        .untilAsserted(() -> assertThat(lost.reasons()).containsExactly(LostReason.ENTRY_REMOVED));
    assertThat(lease.isHeld()).isFalse();
    assertThat(lease.state()).isEqualTo(LeaseState.LOST);
    await("the listener called only once").during(A_WHILE).atMost(PROMPTLY)
        .until(() -> lost.reasons().size() == 1);
    lease.close();
    assertThat(lease.state()).isEqualTo(LeaseState.LOST);
  }

  /** Closing the client is the natural answer to a loss: from the lost-lock listener, it neither stalls nor throws. */
  @Test
  @Timeout(30)
  void closingTheClientFromALostLockListenerIsPromptAndLeavesNoThread() throws Exception {
    LockClient client = newClient();
    ClosingFromCallback closing = new ClosingFromCallback(client, client);
    Lease lease = client.lock(key).acquire(waitingWithTtl(SHORT_TTL));
    client.lock(key + "-other").acquire(LONG_WAIT); // released by the close, from the listener's thread
    lease.onLost(reason -> closing.close());

    removeEntryBehindOurBack(key);

    closing.assertPromptAndNoThreadLeft();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key + "-other") == 0);
  }

  @Test
  @Timeout(30)
  void closingTheClientWhenAHoldTimeoutEndsALeaseIsPromptAndLeavesNoThread() throws Exception {
    LockClient client = newClient();
    ClosingFromCallback closing = new ClosingFromCallback(client, client);
    Lease lease = client.lock(key).acquire(baseOptions().withWaitTime(LONG_WAIT).withHoldTimeout(Duration.ofMillis(200)));
    lease.onLost(reason -> closing.close());

    closing.assertPromptAndNoThreadLeft();
    assertThat(lease.state()).isEqualTo(LeaseState.EXPIRED);
  }

  @Test
  @Timeout(30)
  void closingTheClientFromAnObserverIsPromptAndLeavesNoThread() throws Exception {
    LockClient client = newClient();
    ClosingFromCallback closing = new ClosingFromCallback(client, client);
    client.observe(new LockObserver() {
      @Override
      public void ended(Lease lease, Primitive primitive, Duration heldFor, LostReason reason) {
        closing.close();
      }
    });

    client.lock(key).acquire(LONG_WAIT).close();

    closing.assertPromptAndNoThreadLeft();
  }

  /** The callbacks of an asynchronous acquire run on the thread that acquired, one of the client's. */
  @Test
  @Timeout(30)
  void closingTheClientWhenAnAsynchronousAcquireCompletesIsPromptAndLeavesNoThread() throws Exception {
    LockClient client = newClient();
    ClosingFromCallback closing = new ClosingFromCallback(client, client);
    Lease held = newClient().lock(key).acquire(LONG_WAIT);
    CompletableFuture<Lease> acquisition = client.lock(key).acquireAsync();
    acquisition.thenRun(closing::close);

    held.close();

    closing.assertPromptAndNoThreadLeft();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  @Test
  @Timeout(30)
  void twoClosesAtOnceBothReturnAndLeaveNoThread() throws Exception {
    LockClient client = newClient();
    client.lock(key).acquire(LONG_WAIT);
    CountDownLatch go = new CountDownLatch(1);
    List<BackgroundCall<Void>> closes = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      closes.add(BackgroundCall.start("close-" + i, () -> {
        go.await();
        client.close();
        return null;
      }));
    }

    go.countDown();

    awaitAll(closes, PROMPTLY);
    assertThat(client.isClosed()).isTrue();
    ClosingFromCallback.assertNoThreadLeft(client);
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  /** User code runs on the client's event thread: an observer that blocks for many ttls stalls no renewal of another lock. */
  @Test
  @Timeout(60)
  void aBlockingObserverDelaysNoRenewal() throws Exception {
    LockClient client = newClient();
    CountDownLatch unblock = new CountDownLatch(1);
    CountDownLatch blocking = new CountDownLatch(1);
    client.observe(new LockObserver() {
      @Override
      public void renewed(Lease renewed, Primitive primitive, boolean succeeded) {
        blocking.countDown();
        try {
          unblock.await(LONG_WAIT.toMillis(), MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    try (Lease lease = client.lock(key).acquire(waitingWithTtl(SHORT_TTL))) {
      assertThat(blocking.await(PROMPTLY.toMillis(), MILLISECONDS)).as("the observer was told of a renewal").isTrue();
      DistributedLock other = newClient().lock(key);
      await("held through six ttls while the observer blocks").during(SHORT_TTL.multipliedBy(6)).atMost(LONG_WAIT)
          .until(() -> lease.isHeld() && other.tryAcquire().map(stolen -> {
            stolen.close();
            return false;
          }).orElse(true));
    } finally {
      unblock.countDown();
    }
  }

  /** A release that finds the entry gone ends the lease as LOST; no reader ever sees it RELEASED first. */
  @Test
  @Timeout(30)
  void aLeaseReachesOneFinalStateOnce() throws Exception {
    RecordingLostListener lost = new RecordingLostListener();
    Lease lease = newClient().lock(key).acquire(LONG_WAIT);
    lease.onLost(lost);
    removeEntryBehindOurBack(key);
    Set<LeaseState> seen = ConcurrentHashMap.newKeySet();
    AtomicBoolean closed = new AtomicBoolean();
    Thread reader = new Thread(() -> {
      while (!closed.get()) {
        seen.add(lease.state());
      }
      seen.add(lease.state());
    }, "state-reader");
    reader.start();
    lease.close();
    closed.set(true);
    reader.join(PROMPTLY.toMillis());
    assertThat(lease.state()).isEqualTo(LeaseState.LOST);
    assertThat(seen).as("the states a reader saw during the release").isSubsetOf(LeaseState.HELD, LeaseState.LOST);
    await().atMost(PROMPTLY).untilAsserted(() -> assertThat(lost.reasons()).containsExactly(LostReason.ENTRY_REMOVED));
  }

  @Test
  @Timeout(30)
  void unlockAfterTheLockWasLostThrows() {
    LockClient client = newClient();
    LockOptions shortTtl = baseOptions().withTtl(Duration.ofMillis(500));
    DistributedLock lock = client.lock(key, shortTtl);
    Duration firstRenewal = shortTtl.ttl().dividedBy(3);
    lock.lock();
    removeEntryBehindOurBack(key);
    await("the lock view sees the loss").pollInSameThread().atMost(firstRenewal.plus(PROMPTLY))
        .until(() -> !lock.isHeldByCurrentThread());
    assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class).hasMessageContaining(key);
    assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
  }
}
