package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the groups of the {@link LockClientContract} share: its timings, the key of the running test, the contract's
 * hooks into the backend's test, and helpers. Each group runs as a nested class of the backend's test, so that one
 * store and one set of clients serve all of them.
 */
abstract class ContractGroup {
  static final Duration SHORT_TTL = Duration.ofMillis(500);
  static final Duration LONG_WAIT = Duration.ofSeconds(10);
  /** The bound for things that should happen at once or within a short ttl. */
  static final Duration PROMPTLY = Duration.ofSeconds(5);
  /** How long something that must not happen is watched for. */
  static final Duration A_WHILE = Duration.ofMillis(300);
  /** The ttl of the lock a child JVM holds until it is killed. */
  static final Duration CHILD_TTL = Duration.ofSeconds(1);
  /**
   * What a crashed holder's lock may take to be taken again beyond the store's {@link #crashFreeBound bound}:
   * the store's expiry sweep (etcd checks its leases every 500 ms, ZooKeeper rounds a session's expiry up to its
   * next 100 ms tick), the watch or pub/sub message that wakes the waiter, the waiter's acquire round trips, and a
   * scheduler or GC stall of a 2-core CI machine that runs other builds meanwhile. Not a performance target: a
   * lock freed later than bound plus slack is one the store kept too long.
   */
  static final Duration CRASH_FREE_SLACK = Duration.ofMillis(1500);
  /**
   * How many local hand-overs in a row a test watches for the chain to end: well above the engine's bound, which
   * is not API and may change.
   */
  static final int HANDOVERS_WATCHED = 256;
  /**
   * How long a thread of a client that holds the key must be seen parked to count as queued behind the holder: it
   * makes no round trip on its way, so a short steady park is its wait (a chain of 64 hand-overs waits 64 times).
   */
  private static final Duration QUEUED_LOCALLY = Duration.ofMillis(30);

  private final LockClientContract contract;
  /** The child JVMs of the running test, killed after it. */
  final List<ChildJvm> children;
  /** The key of the running test, used by no other test. */
  String key;

  ContractGroup(LockClientContract contract) {
    this.contract = contract;
    this.children = contract.children();
  }

  @BeforeEach
  final void takeTheTestsKey() {
    key = contract.key();
  }

  LockClient newClient() {
    return contract.newClient();
  }

  LockClient newCrashableClient() {
    return contract.newCrashableClient();
  }

  void crash(LockClient client) {
    contract.crash(client);
  }

  void removeEntryBehindOurBack(String key) {
    contract.removeEntryBehindOurBack(key);
  }

  int entriesAtStore(String key) {
    return contract.entriesAtStore(key);
  }

  Duration crashFreeBound(Duration ttl) {
    return contract.crashFreeBound(ttl);
  }

  LockOptions baseOptions() {
    return contract.baseOptions();
  }

  boolean rewritesHolderRecords() {
    return contract.rewritesHolderRecords();
  }

  boolean deliversReleaseRequests() {
    return contract.deliversReleaseRequests();
  }

  boolean listensForReleaseRequestsAtStore(String clientId) {
    return contract.listensForReleaseRequestsAtStore(clientId);
  }

  boolean reachableFromOtherProcesses() {
    return contract.reachableFromOtherProcesses();
  }

  /** Skips the running test unless the clients take shared entries ({@link LockClientContract#takesSharedEntries}). */
  void assumeSharedEntries() {
    assumeTrue(contract.takesSharedEntries(), "the clients take exclusive entries only");
  }

  Class<? extends LockClientFactory> factoryClass() {
    return contract.factoryClass();
  }

  String target() {
    return contract.target();
  }

  /**
   * Runs {@code threadsPerLock} threads on each lock (every other one through the Lock view), each updating one
   * shared counter with a read-pause-write {@code rounds} times, and checks that no two were ever inside at once
   * and no increment was lost.
   */
  static void contend(String name, List<DistributedLock> locks, int threadsPerLock, int rounds, Duration total)
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

  static void criticalSectionUnderLockView(DistributedLock lock, MutualExclusionChecker checker) {
    lock.lock();
    try {
      checker.criticalSection();
    } finally {
      lock.unlock();
    }
  }

  static void criticalSectionUnderLease(DistributedLock lock, MutualExclusionChecker checker)
      throws InterruptedException {
    Lease lease = lock.acquire();
    try {
      checker.criticalSection();
    } finally {
      lease.close();
    }
  }

  /**
   * When a holder crashed: taken just before the crash (or the SIGKILL), so that the time measured from it can only
   * be longer than the real one.
   */
  Crash crashingNow() {
    return new Crash(System.nanoTime(), contract.leaderElections());
  }

  /**
   * Asserts that the lock, taken with {@code ttl} by a holder that {@code crashed}, has just been taken again within
   * the store's {@link #crashFreeBound bound} plus {@link #CRASH_FREE_SLACK}, and as much again for each election of
   * a new leader in the store meanwhile ({@link LockClientContract#leaderElections()}).
   */
  void assertFreedWithinBound(Crash crashed, Duration ttl) {
    Duration freedAfter = Duration.ofNanos(System.nanoTime() - crashed.atNanos());
    long elections = contract.leaderElections() - crashed.elections();
    Duration bound = crashFreeBound(ttl);
    assertThat(freedAfter)
        .as("time from the crash to the next acquire; the store frees the lock within %d ms, plus %d ms of slack, "
            + "times %d for the %d elections of a new leader meanwhile", bound.toMillis(), CRASH_FREE_SLACK.toMillis(),
            elections + 1, elections)
        .isLessThanOrEqualTo(bound.plus(CRASH_FREE_SLACK).multipliedBy(elections + 1));
  }

  /**
   * A holder's crash.
   *
   * @param atNanos {@link System#nanoTime()} just before it
   * @param elections {@link LockClientContract#leaderElections()} just before it
   */
  record Crash(long atNanos, long elections) {}

  /** Options that wait up to 10 s and keep a crashed holder's entry for {@code ttl}. */
  LockOptions waitingWithTtl(Duration ttl) {
    return baseOptions().toBuilder().waitTime(LONG_WAIT).ttl(ttl).build();
  }

  /** Whether {@code lock} is refused to a single try; a lease granted anyway is released at once. */
  static boolean refuses(DistributedLock lock) {
    Optional<Lease> taken = lock.tryAcquire();
    taken.ifPresent(Lease::close);
    return taken.isEmpty();
  }

  static void assertStrictlyIncreasing(List<Long> tokens) {
    for (int i = 1; i < tokens.size(); i++) {
      assertThat(tokens.get(i)).as("token %d of %s", i, tokens).isGreaterThan(tokens.get(i - 1));
    }
  }

  static void assertRejected(String field, Runnable setter) {
    assertThatThrownBy(setter::run).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(field);
  }

  static void awaitAll(List<? extends BackgroundCall<?>> calls, Duration total) throws InterruptedException {
    long deadline = System.nanoTime() + total.toNanos();
    for (BackgroundCall<?> call : calls) {
      call.result(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }
  }

  /**
   * Hands {@code held} over from thread to thread of {@code client}, each waiting for {@code key} before the holder
   * releases, until the lease handed on has another token than {@code held} (the chain went back to the store) or
   * {@code watched} hand-overs passed.
   */
  static Chain handOverUntilTheTokenChanges(LockClient client, String key, Lease held, int watched)
      throws InterruptedException {
    long firstToken = held.fencingToken();
    Lease last = held;
    int holders = 1;
    for (int i = 0; i < watched; i++) {
      BackgroundCall<Lease> next = BackgroundCall.start("holder-" + i, () -> client.lock(key).acquire(LONG_WAIT));
      next.awaitBlocked(QUEUED_LOCALLY);
      last.close();
      last = next.result(PROMPTLY);
      if (last.fencingToken() != firstToken) {
        break;
      }
      holders++;
    }
    return new Chain(holders, last);
  }

  /**
   * What a chain of local hand-overs came to.
   *
   * @param holders how many leases held the first token, the first one included
   * @param last the lease last handed on, still held
   */
  record Chain(int holders, Lease last) {}

  static void closeAll(List<? extends AutoCloseable> resources) {
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
