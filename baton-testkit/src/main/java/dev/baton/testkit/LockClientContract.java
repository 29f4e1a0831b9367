package dev.baton.testkit;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeout;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockLostException;
import dev.baton.LockObserver;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.LockTimeoutException;
import dev.baton.LostReason;
import dev.baton.spi.KeyOrder;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * What every backend must do, whatever its store. A backend's test extends this class and says how to reach
 * its store and how to tamper with it:
 *
 * <pre>{@code
 * class RedisLockClientTest extends LockClientContract {
 *   @RegisterExtension
 *   static final RedisServerExtension redis = new RedisServerExtension();
 *
 *   public static final class Factory implements LockClientFactory {
 *     public LockClient connect(String target) { return RedisLockClient.connect(target); }
 *   }
 *
 *   protected Class<? extends LockClientFactory> factoryClass() { return Factory.class; }
 *   protected String target() { return redis.uri(); }
 *   ...
 * }
 * }</pre>
 *
 * <p>Every test uses a key of its own, so one store serves the whole class. After each test the suite closes
 * every client it made and kills every child JVM it started.
 */
public abstract class LockClientContract {
  private static final Duration SHORT_TTL = Duration.ofMillis(500);
  private static final Duration LONG_WAIT = Duration.ofSeconds(10);
  /** The bound for things that should happen at once or within a short ttl. */
  private static final Duration PROMPTLY = Duration.ofSeconds(5);
  /** How long something that must not happen is watched for. */
  private static final Duration A_WHILE = Duration.ofMillis(300);
  /** The ttl of the lock a child JVM holds until it is killed. */
  private static final Duration CHILD_TTL = Duration.ofSeconds(1);
  /**
   * What a crashed holder's lock may take to be taken again beyond the store's {@link #crashFreeBound bound}:
   * the store's expiry sweep (etcd checks its leases every 500 ms, ZooKeeper rounds a session's expiry up to its
   * next 100 ms tick), the watch or pub/sub message that wakes the waiter, the waiter's acquire round trips, and a
   * scheduler or GC stall of a 2-core CI machine that runs other builds meanwhile. Not a performance target: a
   * lock freed later than bound plus slack is one the store kept too long.
   */
  private static final Duration CRASH_FREE_SLACK = Duration.ofMillis(1500);

  /**
   * How many local hand-overs in a row a test watches for the chain to end: well above the engine's bound, which
   * is not API and may change.
   */
  private static final int HANDOVERS_WATCHED = 256;

  private final List<LockClient> clients = new CopyOnWriteArrayList<>();
  private final List<ChildJvm> children = new CopyOnWriteArrayList<>();
  private final List<ProxiedTarget> proxies = new CopyOnWriteArrayList<>();
  private final Map<LockClient, ProxiedTarget> crashable = new ConcurrentHashMap<>();
  private String key;

  /** The factory the suite makes clients with, here and in child JVMs; it needs a public no-argument constructor. */
  protected abstract Class<? extends LockClientFactory> factoryClass();

  /** Where the store is, as the factory expects it. */
  protected abstract String target();

  /** Deletes the store's entry for a held key, as an operator or a premature expiry would. */
  protected abstract void removeEntryBehindOurBack(String key);

  /** How many entries the store has for the key: holders plus queued waiters. */
  protected abstract int entriesAtStore(String key);

  /**
   * A new client that {@link #crash} can stop, closed after the test. By default it connects through a
   * {@link ProxiedTarget}: a proxy in front of each loopback address of the {@link #target()}.
   */
  protected LockClient newCrashableClient() {
    ProxiedTarget proxied = ProxiedTarget.of(target());
    proxies.add(proxied);
    LockClient client = newClient(proxied.target());
    crashable.put(client, proxied);
    return client;
  }

  /**
   * Stops a client from {@link #newCrashableClient()} as a crashed process would: it releases nothing and renews
   * nothing from now on, and ends no session. By default its proxies cut it off the store.
   */
  protected void crash(LockClient client) {
    ProxiedTarget proxied = crashable.get(client);
    if (proxied == null) {
      throw new IllegalArgumentException(client + " was not made by newCrashableClient()");
    }
    proxied.cut();
  }

  /**
   * How long after its holder crashed (it releases nothing and renews nothing from then on) the store frees a
   * lock taken with {@code ttl}. By default the ttl itself: the store expires the entry at most one ttl after
   * its last renewal. A store whose entries live as long as the client's session or lease, not the lock's ttl,
   * returns that session's timeout or that lease's ttl, as its contract test configures it.
   */
  protected Duration crashFreeBound(Duration ttl) {
    return ttl;
  }

  /**
   * The options the suite's own acquires start from; a backend with variants (ZooKeeper's non-fair lock)
   * overrides it to run the suite against each. The factory's clients should use the same defaults.
   */
  protected LockOptions baseOptions() {
    return LockOptions.defaults();
  }

  /** A new client from {@link #factoryClass()}, closed after the test. */
  protected final LockClient newClient() {
    return newClient(target());
  }

  private LockClient newClient(String target) {
    LockClientFactory factory;
    try {
      factory = factoryClass().getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(factoryClass().getName() + " needs a public no-argument constructor.", e);
    }
    LockClient client = factory.connect(target);
    clients.add(client);
    return client;
  }

  /** The key of the running test, used by no other test. */
  protected final String key() {
    return key;
  }

  @BeforeEach
  final void chooseKey(TestInfo test) {
    String name = test.getTestMethod().map(Method::getName).orElse("test");
    key = "contract/" + name + "/" + Long.toHexString(ThreadLocalRandom.current().nextLong());
  }

  @AfterEach
  final void closeEverything() {
    try {
      closeAll(children);
    } finally {
      try {
        closeAll(clients);
      } finally {
        closeAll(proxies);
        crashable.clear();
      }
    }
  }

  // Mutual exclusion and fencing

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
        baseOptions().toBuilder().waitTime(wait).fair(true).ttl(Duration.ofSeconds(2)).leaseTime(Duration.ofSeconds(20)).build(),
        baseOptions().toBuilder().waitTime(wait).fair(false).ttl(Duration.ofSeconds(5)).leaseTime(Duration.ofSeconds(3)).build());
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

  // Local handover

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
    int sharing = 1;
    for (int i = 0; i < HANDOVERS_WATCHED; i++) {
      BackgroundCall<Lease> next = BackgroundCall.start("holder-" + i, () -> client.lock(key).acquire(LONG_WAIT));
      next.awaitBlocked();
      held.close();
      held = next.result(PROMPTLY);
      if (held.fencingToken() != firstToken) {
        break;
      }
      sharing++;
    }
    assertThat(sharing).as("holders of the first token: handed over locally, a bounded number of times")
        .isGreaterThan(1).isLessThan(HANDOVERS_WATCHED);
    assertThat(held.fencingToken()).as("the token after the last handover").isGreaterThan(firstToken);
    held.close();
  }

  @Test
  @Timeout(30)
  void aWaiterWithAHoldTimeoutTakesNoLeaseOverAndGetsItsOwnGrant() throws Exception {
    LockClient client = newClient();
    Lease first = client.lock(key).acquire(LONG_WAIT);
    LockOptions withHoldTimeout = baseOptions().withWaitTime(LONG_WAIT).withLeaseTime(Duration.ofSeconds(20));
    BackgroundCall<Lease> next = BackgroundCall.start("bounded-holder", () -> client.lock(key).acquire(withHoldTimeout));
    next.awaitBlocked();

    first.close();
    try (Lease second = next.result(PROMPTLY)) {
      assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
      assertThat(second.ownerId()).isNotEqualTo(first.ownerId());
    }
  }

  // Reentrancy

  @Test
  @Timeout(30)
  void lockViewIsReentrant() {
    DistributedLock lock = newClient().lock(key);
    DistributedLock other = newClient().lock(key);
    lock.lock();
    lock.lock();
    lock.unlock();
    assertThat(lock.isHeldByCurrentThread()).isTrue();
    assertThat(other.tryLock()).as("another client's tryLock while one hold remains").isFalse();
    lock.unlock();
    assertThat(lock.isHeldByCurrentThread()).isFalse();
    assertThat(other.tryLock()).as("another client's tryLock after the last unlock").isTrue();
    other.unlock();
  }

  @Test
  @Timeout(30)
  void unlockByAThreadThatDoesNotHoldTheLockThrows() throws Exception {
    DistributedLock lock = newClient().lock(key);
    assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
    lock.lock();
    try {
      Throwable thrown = BackgroundCall.start("stranger", () -> {
        lock.unlock();
        return null;
      }).failure(PROMPTLY);
      assertThat(thrown).isInstanceOf(IllegalMonitorStateException.class);
      assertThat(lock.isHeldByCurrentThread()).isTrue();
    } finally {
      lock.unlock();
    }
  }

  @Test
  @Timeout(30)
  void leaseIsNotReentrant() throws Exception {
    DistributedLock lock = newClient().lock(key);
    try (Lease first = lock.acquire(LONG_WAIT)) {
      assertThatThrownBy(() -> lock.acquire(Duration.ofMillis(200))).isInstanceOf(LockTimeoutException.class);
      assertThat(first.isHeld()).isTrue();
    }
  }

  // Timeouts

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
        .acquire(baseOptions().toBuilder().waitTime(LONG_WAIT).leaseTime(Duration.ofMillis(500)).build());
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
        .acquire(waitingWithTtl(SHORT_TTL).withLeaseTime(hold));
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
      assertThatThrownBy(() -> renewed.extendHold(Duration.ofSeconds(1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContainingAll(key, "withLeaseTime");
    }
    Lease bounded = client.lock(key).acquire(baseOptions().withWaitTime(LONG_WAIT).withLeaseTime(Duration.ofSeconds(20)));
    for (Duration bad : Arrays.asList(null, Duration.ZERO, Duration.ofMillis(-1), Duration.ofDays(366))) {
      assertThatThrownBy(() -> bounded.extendHold(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContainingAll("holdFor", String.valueOf(bad));
    }
    assertThat(bounded.isHeld()).as("the lease after the rejected calls").isTrue();
    bounded.close();
    assertThat(bounded.extendHold(Duration.ofSeconds(1))).as("extendHold once released").isFalse();
    assertThat(entriesAtStore(key)).isZero();
  }

  @Test
  @Timeout(30)
  void watchdogKeepsALongHolderAlive() throws Exception {
    Duration ttl = Duration.ofMillis(300);
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

  // Crashes and losses

  @Test
  @Timeout(30)
  void crashedHolderBlocksOthersOnlyUntilItsTtl() throws Exception {
    LockClient crashing = newCrashableClient();
    Lease abandoned = crashing.lock(key).acquire(waitingWithTtl(SHORT_TTL));
    DistributedLock lock = newClient().lock(key); // connected before the crash: only the store's wait is timed
    long crashedAt = System.nanoTime();
    crash(crashing);
    try (Lease next = lock.acquire(LONG_WAIT)) {
      assertFreedWithinBound(crashedAt, SHORT_TTL);
      assertThat(next.fencingToken()).isGreaterThan(abandoned.fencingToken());
    }
  }

  @Test
  @Timeout(30)
  void killedHolderJvmBlocksOthersOnlyUntilItsTtl() throws Exception {
    ChildJvm child = ChildJvm.holdingLock(factoryClass(), target(), key, CHILD_TTL);
    children.add(child);
    DistributedLock lock = newClient().lock(key);
    assertThat(lock.tryAcquire()).as("tryAcquire while the child JVM holds the lock").isEmpty();
    long killedAt = System.nanoTime(); // before the SIGKILL: the measured time can only be longer than the real one
    child.kill();
    try (Lease next = lock.acquire(LONG_WAIT)) {
      assertFreedWithinBound(killedAt, CHILD_TTL);
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

  /** User code runs on the client's event thread: an observer that blocks for many ttls stalls no renewal of another lock. */
  @Test
  @Timeout(60)
  void aBlockingObserverDelaysNoRenewal() throws Exception {
    LockClient client = newClient();
    CountDownLatch unblock = new CountDownLatch(1);
    CountDownLatch blocking = new CountDownLatch(1);
    client.observe(new LockObserver() {
      @Override
      public void renewed(String renewedKey, boolean succeeded) {
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

  // Interruption

  @Test
  @Timeout(30)
  void interruptedAcquireLeavesNothingBehind() throws Exception {
    DistributedLock waiting = newClient().lock(key);
    try (Lease held = newClient().lock(key).acquire(LONG_WAIT)) {
      BackgroundCall<Lease> call = BackgroundCall.start("interrupted-acquire", waiting::acquire);
      call.awaitBlocked();
      call.interrupt();
      assertThat(call.failure(PROMPTLY)).isInstanceOf(InterruptedException.class);
      assertThat(entriesAtStore(key)).as("entries while the holder holds").isEqualTo(1);
      assertThat(held.isHeld()).as("the holder's lease").isTrue();
    }
    Optional<Lease> next = waiting.tryAcquire();
    assertThat(next).as("the interrupted client's tryAcquire after the release").isPresent();
    next.get().close();
  }

  @Test
  @Timeout(30)
  void lockInterruptiblyIsInterruptible() throws Exception {
    DistributedLock waiting = newClient().lock(key);
    try (Lease held = newClient().lock(key).acquire(LONG_WAIT)) {
      BackgroundCall<Void> call = BackgroundCall.start("interrupted-lock", () -> {
        waiting.lockInterruptibly();
        return null;
      });
      call.awaitBlocked();
      call.interrupt();
      assertThat(call.failure(PROMPTLY)).isInstanceOf(InterruptedException.class);
      assertThat(entriesAtStore(key)).as("entries while the holder holds").isEqualTo(1);
      assertThat(held.isHeld()).as("the holder's lease").isTrue();
    }
  }

  @Test
  @Timeout(30)
  void lockIsNotInterruptible() throws Exception {
    DistributedLock waiting = newClient().lock(key);
    Lease held = newClient().lock(key).acquire(LONG_WAIT);
    BackgroundCall<Boolean> call = BackgroundCall.start("uninterruptible-lock", () -> {
      waiting.lock();
      try {
        return Thread.currentThread().isInterrupted();
      } finally {
        waiting.unlock();
      }
    });
    call.awaitBlocked();
    call.interrupt();
    await("lock() still waiting after the interrupt").during(A_WHILE).atMost(PROMPTLY)
        .until(() -> !call.isDone());
    held.close();
    assertThat(call.result(LONG_WAIT)).as("interrupt flag once lock() returned").isTrue();
  }

  // Asynchronous acquisition

  @Test
  @Timeout(30)
  void acquireAsyncCompletesWithAHeldLease() throws Exception {
    try (Lease lease = newClient().lock(key).acquireAsync().get(LONG_WAIT.toMillis(), MILLISECONDS)) {
      assertThat(lease.isHeld()).isTrue();
      assertThat(lease.key()).isEqualTo(key);
    }
  }

  @Test
  @Timeout(30)
  void cancelledAcquireAsyncLeavesNothingBehind() throws Exception {
    LockClient waiter = newClient();
    try (Lease held = newClient().lock(key).acquire(LONG_WAIT)) {
      CompletableFuture<Lease> pending = waiter.lock(key).acquireAsync();
      await("acquireAsync waiting while the lock is held").during(A_WHILE).atMost(PROMPTLY)
          .until(() -> !pending.isDone());
      assertThat(pending.cancel(true)).isTrue();
      assertThat(pending).isCancelled();
      assertThat(held.isHeld()).as("the holder's lease").isTrue();
    }
    await("no entries left after the release").during(A_WHILE).atMost(PROMPTLY)
        .until(() -> entriesAtStore(key) == 0);
    Optional<Lease> next = waiter.lock(key).tryAcquire();
    assertThat(next).as("the cancelling client's tryAcquire").isPresent();
    next.get().close();
  }

  @Test
  @Timeout(30)
  void acquireAsyncTimesOut() throws Exception {
    try (Lease held = newClient().lock(key).acquire(LONG_WAIT)) {
      CompletableFuture<Lease> pending = newClient().lock(key)
          .acquireAsync(baseOptions().withWaitTime(Duration.ofMillis(200)));
      assertThat(pending).failsWithin(PROMPTLY)
          .withThrowableOfType(ExecutionException.class)
          .withCauseInstanceOf(LockTimeoutException.class);
      assertThat(entriesAtStore(key)).as("entries while the holder holds").isEqualTo(1);
      assertThat(held.isHeld()).as("the holder's lease").isTrue();
    }
  }

  // Trying without waiting

  @Test
  @Timeout(30)
  void tryAcquireAndTryLockDoNotWait() throws Exception {
    DistributedLock mine = newClient().lock(key);
    DistributedLock theirs = newClient().lock(key);
    assertThat(mine.tryLock()).isTrue();
    mine.unlock();
    Optional<Lease> first = mine.tryAcquire();
    assertThat(first).isPresent();
    try (Lease held = first.get()) {
      assertThat(assertTimeout(PROMPTLY, theirs::tryAcquire))
          .as("tryAcquire while another client holds the lock")
          .isEmpty();
      boolean locked = assertTimeout(PROMPTLY, () -> {
        return theirs.tryLock();
      });
      assertThat(locked).as("tryLock while another client holds the lock").isFalse();
      assertThat(theirs.tryLock(200, MILLISECONDS)).isFalse();
      assertThat(held.isHeld()).as("the holder's lease").isTrue();
    }
    assertThat(theirs.tryLock()).as("tryLock after the release").isTrue();
    theirs.unlock();
  }

  // Releasing

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

  // Bad input

  // Status

  @Test
  @Timeout(30)
  void statusShowsTheHolderAndItsToken() throws Exception {
    LockClient client = newClient();
    assertThat(client.status(key).isHeld()).isFalse();
    Instant before = Instant.now().minusSeconds(1);
    try (Lease lease = client.lock(key).acquire(LONG_WAIT)) {
      LockStatus status = newClient().status(key);
      assertThat(status.isHeld()).isTrue();
      assertThat(status.ownerId()).contains(lease.ownerId());
      assertThat(status.fencingToken()).hasValue(lease.fencingToken());
      status.remainingTtl().ifPresent(ttl -> assertThat(ttl).isPositive());
      assertThat(status.holder()).as("who holds it").hasValueSatisfying(holder -> {
        assertThat(holder.pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(holder.thread()).isEqualTo(Thread.currentThread().getName());
        assertThat(holder.host()).isNotBlank();
        assertThat(holder.acquiredAt()).isBetween(before, Instant.now().plusSeconds(1));
      });
    }
    assertThat(client.status(key).isHeld()).isFalse();
  }

  // List

  /**
   * A few locks under a prefix, nested ones among them, the prefix's own parent key held outside it and a waiter
   * of another client on one of them: the list is exactly the held keys under the prefix, in key order, each
   * with its owner, token, holder and waiters; the limit cuts it at the first keys.
   */
  @Test
  @Timeout(30)
  void listShowsTheLocksHeldUnderAPrefixInKeyOrder() throws Exception {
    LockClient client = newClient();
    LockClient observer = newClient();
    String prefix = key + "/";
    List<String> keys = List.of(prefix + "a", prefix + "b", prefix + "b/c", prefix + "bb");
    Instant before = Instant.now().minusSeconds(1);
    List<Lease> leases = new ArrayList<>();
    BackgroundCall<Lease> waiter;
    try (Lease outside = client.lock(key).acquire(LONG_WAIT)) {
      for (String held : keys) {
        leases.add(client.lock(held).acquire(LONG_WAIT));
      }
      // A fair waiter keeps its place at every store, so that each counts it.
      LockOptions fairWaiting = baseOptions().toBuilder().fair(true).waitTime(LONG_WAIT).build();
      LockClient other = newClient();
      waiter = BackgroundCall.start("waiter", () -> other.lock(prefix + "b", fairWaiting).acquire());
      waiter.awaitBlocked();
      await("the waiter on " + prefix + "b seen at the store").atMost(PROMPTLY)
          .until(() -> observer.list(prefix, 10).stream().anyMatch(s -> s.key().equals(prefix + "b") && s.waiters() == 1));

      List<LockStatus> listed = observer.list(prefix, 10);
      assertThat(listed).extracting(LockStatus::key).containsExactlyElementsOf(keys);
      for (int i = 0; i < keys.size(); i++) {
        LockStatus status = listed.get(i);
        Lease lease = leases.get(i);
        assertThat(status.isHeld()).as("%s held", status.key()).isTrue();
        assertThat(status.ownerId()).as("owner of %s", status.key()).contains(lease.ownerId());
        assertThat(status.fencingToken()).as("token of %s", status.key()).hasValue(lease.fencingToken());
        assertThat(status.waiters()).as("waiters of %s", status.key()).isEqualTo(status.key().equals(prefix + "b") ? 1 : 0);
        status.remainingTtl().ifPresent(ttl -> assertThat(ttl).as("ttl left of %s", status.key()).isPositive());
        assertThat(status.holder()).as("who holds %s", status.key()).hasValueSatisfying(holder -> {
          assertThat(holder.pid()).isEqualTo(ProcessHandle.current().pid());
          assertThat(holder.thread()).isEqualTo(Thread.currentThread().getName());
          assertThat(holder.host()).isNotBlank();
          assertThat(holder.acquiredAt()).isBetween(before, Instant.now().plusSeconds(1));
        });
      }
      assertThat(observer.list(prefix, 2)).as("the first two").extracting(LockStatus::key)
          .containsExactly(prefix + "a", prefix + "b");
      assertThat(observer.list(prefix + "b", 10)).as("a prefix ending inside a path segment").extracting(LockStatus::key)
          .containsExactly(prefix + "b", prefix + "b/c", prefix + "bb");
      assertThat(observer.list(prefix + "c", 10)).as("nothing under the prefix").isEmpty();
      assertThat(observer.list("", LockClient.MAX_LIST_LIMIT)).as("every lock").extracting(LockStatus::key)
          .containsSubsequence(key, prefix + "a", prefix + "b", prefix + "b/c", prefix + "bb")
          .isSortedAccordingTo(KeyOrder.BY_CODE_POINT);
    } finally {
      closeAll(leases);
    }
    waiter.result(LONG_WAIT).close();
    assertThat(observer.list(prefix, 10)).as("after the releases").isEmpty();
  }

  /** Glob and regular-expression characters in a prefix are only characters; bad prefixes and limits are named. */
  @Test
  @Timeout(30)
  void listTakesThePrefixLiterallyAndRejectsBadPrefixesAndLimits() throws Exception {
    LockClient client = newClient();
    String prefix = key + "/";
    List<Lease> leases = new ArrayList<>();
    try {
      for (String held : List.of("g*", "g\\x", "gx", "q[ab]", "qa")) {
        leases.add(client.lock(prefix + held).acquire(LONG_WAIT));
      }
      assertThat(client.list(prefix + "g*", 10)).extracting(LockStatus::key).containsExactly(prefix + "g*");
      assertThat(client.list(prefix + "g?", 10)).isEmpty();
      assertThat(client.list(prefix + "g\\", 10)).extracting(LockStatus::key).containsExactly(prefix + "g\\x");
      assertThat(client.list(prefix + "q[", 10)).extracting(LockStatus::key).containsExactly(prefix + "q[ab]");
      assertThat(client.list(prefix + ".*", 10)).isEmpty();
    } finally {
      closeAll(leases);
    }
    assertThatThrownBy(() -> client.list(null, 10)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("null");
    assertThatThrownBy(() -> client.list("orders\n", 10)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("orders\\u000a");
    assertThatThrownBy(() -> client.list("coll\uD800", 10)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContainingAll("coll", "unpaired surrogate");
    assertThatThrownBy(() -> client.list("k".repeat(300), 10)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("300");
    for (int limit : new int[] {0, -1, LockClient.MAX_LIST_LIMIT + 1}) {
      assertThatThrownBy(() -> client.list(prefix, limit)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("was " + limit);
    }
  }

  @Test
  @Timeout(30)
  void badKeysAreRejectedWithTheKeyInTheMessage() {
    LockClient client = newClient();
    assertThatThrownBy(() -> client.lock(null)).isInstanceOf(IllegalArgumentException.class);
    for (String blank : List.of("", "   ", " \t ")) {
      assertThatThrownBy(() -> client.lock(blank)).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> client.lock("k".repeat(300)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("300");
    for (String control : List.of("orders\n42", "orders\u000042")) {
      assertThatThrownBy(() -> client.lock(control))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContainingAll("orders", "42");
    }
    // Each encodes to the bytes of "coll?": accepted, they would be one lock at the store under three names.
    for (String unpaired : List.of("coll\uD800", "coll\uDC00")) {
      assertThatThrownBy(() -> client.lock(unpaired))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContainingAll("coll", "unpaired surrogate");
    }
  }

  @Test
  @Timeout(10)
  void badOptionsAreRejectedNamingTheField() {
    assertRejected("waitTime", () -> LockOptions.builder().waitTime(Duration.ofMillis(-1)));
    assertRejected("waitTime", () -> LockOptions.builder().waitTime(Duration.ofDays(366)));
    assertRejected("ttl", () -> LockOptions.builder().ttl(Duration.ZERO));
    assertRejected("ttl", () -> LockOptions.builder().ttl(Duration.ofMillis(-1)));
    assertRejected("ttl", () -> LockOptions.builder().ttl(LockOptions.MIN_TTL.minusMillis(1)));
    assertRejected("ttl", () -> LockOptions.builder().ttl(null));
    assertRejected("leaseTime", () -> LockOptions.builder().leaseTime(Duration.ZERO));
  }

  @Test
  @Timeout(30)
  void nullListenersAndConditionsAreRejected() throws Exception {
    DistributedLock lock = newClient().lock(key);
    try (Lease lease = lock.acquire(LONG_WAIT)) {
      assertThatThrownBy(() -> lease.onLost(null)).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> lock.acquire((LockOptions) null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> newClient().lock(key, null)).isInstanceOf(IllegalArgumentException.class);
  }

  // Helpers

  /**
   * Runs {@code threadsPerLock} threads on each lock (every other one through the Lock view), each updating one
   * shared counter with a read-pause-write {@code rounds} times, and checks that no two were ever inside at once
   * and no increment was lost.
   */
  private static void contend(String name, List<DistributedLock> locks, int threadsPerLock, int rounds, Duration total)
      throws InterruptedException {
    MutualExclusionChecker checker = new MutualExclusionChecker();
    List<BackgroundCall<Void>> workers = new ArrayList<>();
    for (int c = 0; c < locks.size(); c++) {
      DistributedLock lock = locks.get(c);
      for (int t = 0; t < threadsPerLock; t++) {
        boolean lockView = t % 2 == 0;
        workers.add(BackgroundCall.start(name + "-" + c + "-" + t, () -> {
          for (int i = 0; i < rounds; i++) {
            if (lockView) {
              criticalSectionUnderLockView(lock, checker);
            } else {
              criticalSectionUnderLease(lock, checker);
            }
          }
          return null;
        }));
      }
    }
    awaitAll(workers, total);
    assertThat(checker.mostInsideAtOnce()).as("holders inside at once").isEqualTo(1);
    assertThat(checker.count()).as("increments not lost").isEqualTo(locks.size() * threadsPerLock * rounds);
  }

  private static void criticalSectionUnderLockView(DistributedLock lock, MutualExclusionChecker checker) {
    lock.lock();
    try {
      checker.criticalSection();
    } finally {
      lock.unlock();
    }
  }

  private static void criticalSectionUnderLease(DistributedLock lock, MutualExclusionChecker checker)
      throws InterruptedException {
    Lease lease = lock.acquire();
    try {
      checker.criticalSection();
    } finally {
      lease.close();
    }
  }

  /**
   * Asserts that the lock, taken with {@code ttl} by a holder that crashed at {@code crashedAtNanos}, has just
   * been taken again within the store's {@link #crashFreeBound bound} plus {@link #CRASH_FREE_SLACK}.
   */
  private void assertFreedWithinBound(long crashedAtNanos, Duration ttl) {
    Duration freedAfter = Duration.ofNanos(System.nanoTime() - crashedAtNanos);
    Duration bound = crashFreeBound(ttl);
    assertThat(freedAfter)
        .as("time from the crash to the next acquire; the store frees the lock within %d ms, plus %d ms of slack",
            bound.toMillis(), CRASH_FREE_SLACK.toMillis())
        .isLessThanOrEqualTo(bound.plus(CRASH_FREE_SLACK));
  }

  /** Options that wait up to 10 s and keep a crashed holder's entry for {@code ttl}. */
  private LockOptions waitingWithTtl(Duration ttl) {
    return baseOptions().toBuilder().waitTime(LONG_WAIT).ttl(ttl).build();
  }

  /** Whether {@code lock} is refused to a single try; a lease granted anyway is released at once. */
  private static boolean refuses(DistributedLock lock) {
    Optional<Lease> taken = lock.tryAcquire();
    taken.ifPresent(Lease::close);
    return taken.isEmpty();
  }

  private static void assertStrictlyIncreasing(List<Long> tokens) {
    for (int i = 1; i < tokens.size(); i++) {
      assertThat(tokens.get(i)).as("token %d of %s", i, tokens).isGreaterThan(tokens.get(i - 1));
    }
  }

  private static void assertRejected(String field, Runnable setter) {
    assertThatThrownBy(setter::run).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(field);
  }

  private static void awaitAll(List<? extends BackgroundCall<?>> calls, Duration total) throws InterruptedException {
    long deadline = System.nanoTime() + total.toNanos();
    for (BackgroundCall<?> call : calls) {
      call.result(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }
  }

  private static void closeAll(List<? extends AutoCloseable> resources) {
    RuntimeException failure = null;
    for (AutoCloseable resource : resources) {
      try {
        resource.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = new IllegalStateException("Could not close everything after the test", e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    resources.clear();
    if (failure != null) {
      throw failure;
    }
  }
}
