package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lingering locks ({@link LockOptions.Builder#linger}): a re-acquire in the same client takes the lingering entry
 * back with its fencing token; another client that waits gets the lock long before the linger ends, idle or held in a
 * loop (the second is reported, not asserted: a loaded machine may take longer, and no test asserts a timing);
 * a request to release, the client's close, the linger's bound and the entry's loss end it; two lingering clients
 * still exclude each other. Part of the {@link LockClientContract}: it runs as a nested class of the backend's test;
 * tagged {@code linger}, so that {@code -Dtest=RedisLockContractTest -Dgroups=linger} runs this group alone.
 */
@Tag("linger")
abstract class ContractLinger extends ContractGroup {
  private static final Duration LINGER = Duration.ofSeconds(5);
  /**
   * A linger that no test outlasts, and how long another client's waiter waits for a lock lingering that long: one
   * served within it was served because it waited, not because the linger ended.
   */
  private static final Duration LONG_LINGER = Duration.ofSeconds(120);
  private static final Duration REMOTE_WAITER_BOUND = Duration.ofSeconds(20);
  /** The cycles of the loops whose rates are reported. */
  private static final int CYCLES = 200;

  ContractLinger(LockClientContract contract) {
    super(contract);
  }

  /** The suite's options with a linger. */
  private LockOptions lingering(Duration linger) {
    return baseOptions().toBuilder().waitTime(LONG_WAIT).linger(linger).build();
  }

  /** The options of another client's waiter, on the suite's fairness. */
  private LockOptions waiter(Duration waitTime) {
    return baseOptions().toBuilder().waitTime(waitTime).build();
  }

  @Test
  @Timeout(30)
  void aReAcquireInTheSameClientTakesTheLingeringEntryWithItsToken() throws Exception {
    LockClient client = newClient();
    DistributedLock lock = client.lock(key, lingering(LINGER));
    long token;
    try (Lease first = lock.acquire()) {
      token = first.fencingToken();
    }
    for (int i = 0; i < 50; i++) {
      try (Lease again = lock.acquire()) {
        assertThat(again.fencingToken()).as("cycle %d", i).isEqualTo(token);
        assertThat(again.isHeld()).isTrue();
      }
    }
    assertThat(entriesAtStore(key)).as("the lingering entry").isEqualTo(1);
    assertThat(newClient().status(key).isHeld()).isTrue();
  }

  @Test
  @Timeout(30)
  void anotherClientThatWaitsGetsAnIdleLingeringLockLongBeforeTheLingerEnds() throws Exception {
    LockClient holding = newClient();
    long token;
    try (Lease held = holding.lock(key, lingering(LONG_LINGER)).acquire()) {
      token = held.fencingToken();
    }
    assertThat(entriesAtStore(key)).as("the lingering entry").isEqualTo(1);
    long askedAt = System.nanoTime();
    try (Lease theirs = newClient().lock(key, waiter(REMOTE_WAITER_BOUND)).acquire()) {
      assertThat(theirs.fencingToken()).isGreaterThan(token);
    }
    System.out.printf("Another client waiting for an idle lock lingering on %s got it after %d ms%n", target(),
        Duration.ofNanos(System.nanoTime() - askedAt).toMillis());
  }

  @Test
  @Timeout(30)
  void anotherClientsTryFailsWhileTheLockLingersAndARequestToReleaseFreesIt() throws Exception {
    assumeTrue(deliversReleaseRequests(), "the store cannot deliver requests to release");
    LockClient holding = newClient();
    LockClient asking = newClient();
    Lease held = holding.lock(key, lingering(LINGER)).acquire();
    held.onReleaseRequested(() -> {}); // listens from now on: the request below is sure to be heard
    held.close();
    assertThat(asking.lock(key, baseOptions()).tryAcquire()).as("a try waits for nothing").isEmpty();

    // 0 where the try's entry, there for a moment, showed the holder a waiter (ZooKeeper): it let go already.
    assertThat(asking.requestRelease(key)).isBetween(0, 1);
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
    try (Lease theirs = asking.lock(key, baseOptions()).tryAcquire().orElseThrow()) {
      assertThat(theirs.fencingToken()).isGreaterThan(held.fencingToken());
    }
  }

  @Test
  @Timeout(30)
  void closingTheClientReleasesItsLingeringEntries() throws Exception {
    LockClient holding = newClient();
    holding.lock(key, lingering(LINGER)).acquire().close();
    holding.lock(key + "/2", lingering(LINGER)).acquire().close();
    holding.close();
    assertThat(entriesAtStore(key)).isZero();
    assertThat(entriesAtStore(key + "/2")).isZero();
  }

  @Test
  @Timeout(30)
  void theLingerEndsAtItsBound() throws Exception {
    LockClient holding = newClient();
    holding.lock(key, lingering(Duration.ofMillis(300))).acquire().close();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
    assertThat(newClient().lock(key, baseOptions()).tryAcquire()).isPresent();
  }

  @Test
  @Timeout(30)
  void aLingeringEntryLostAtTheStoreIsNotTakenAgain() throws Exception {
    LockClient holding = newClient();
    DistributedLock lock = holding.lock(key, lingering(LINGER).withTtl(SHORT_TTL));
    long token;
    try (Lease first = lock.acquire()) {
      token = first.fencingToken();
    }
    removeEntryBehindOurBack(key);
    try (Lease theirs = newClient().lock(key, baseOptions()).acquire(LONG_WAIT)) {
      assertThat(theirs.fencingToken()).isGreaterThan(token);
    }
    await().atMost(PROMPTLY).until(() -> {
      try (Lease again = lock.acquire()) {
        return again.fencingToken() > token;
      }
    });
  }

  @Test
  @Timeout(120)
  void twoLingeringClientsExcludeEachOther() throws Exception {
    LockOptions options = lingering(LINGER);
    List<DistributedLock> locks = List.of(newClient().lock(key, options), newClient().lock(key, options));
    contend("linger", locks, 2, 10, Duration.ofSeconds(100));
  }

  /**
   * The figure: one thread's lock/unlock loop with a linger beside the same loop without, and a second client
   * that asks mid-loop served while the loop goes on, a shared counter exact. Reports the rates and the latency. The
   * critical section is an increment, so that the loop's rate is the lock's.
   */
  @Test
  @Timeout(120)
  void aLoopWithLingerOutrunsOneWithoutAndAnotherClientIsStillServed() throws Exception {
    LockClient looping = newClient();
    Counter counter = new Counter();
    double plainPerSecond = cyclesPerSecond(looping.lock(key, baseOptions()), counter);
    DistributedLock lingeringLock = looping.lock(key, lingering(LINGER));
    double lingeringPerSecond = cyclesPerSecond(lingeringLock, counter);

    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong loopCycles = new AtomicLong();
    BackgroundCall<Void> loop = BackgroundCall.start("lingering-loop", () -> {
      while (!stop.get()) {
        cycle(lingeringLock, counter);
        loopCycles.incrementAndGet();
      }
      return null;
    });
    await().atMost(PROMPTLY).until(() -> loopCycles.get() >= CYCLES);
    long askedAt = System.nanoTime();
    Duration servedAfter;
    try (Lease theirs = newClient().lock(key, waiter(LONG_WAIT)).acquire()) {
      servedAfter = Duration.ofNanos(System.nanoTime() - askedAt);
      counter.increment();
      assertThat(theirs.isHeld()).isTrue();
    } finally {
      stop.set(true);
    }
    loop.result(PROMPTLY);
    assertThat(counter.mostInsideAtOnce()).as("holders inside at once").isEqualTo(1);
    assertThat(counter.count()).as("increments not lost").isEqualTo(2L * (CYCLES + 1) + loopCycles.get() + 1);
    System.out.printf("Lock/unlock loop of one thread on %s: %d cycles/s without linger, %d with linger(5s) (%dx);"
        + " another client asking mid-loop got the lock after %d ms%n", target(), Math.round(plainPerSecond),
        Math.round(lingeringPerSecond), Math.round(lingeringPerSecond / plainPerSecond), servedAfter.toMillis());
  }

  /** How many lock/unlock cycles of one thread per second {@code lock} runs, over {@link #CYCLES} of them. */
  private static double cyclesPerSecond(DistributedLock lock, Counter counter) throws InterruptedException {
    cycle(lock, counter); // the first acquire of a lingering lock goes to the store
    long start = System.nanoTime();
    for (int i = 0; i < CYCLES; i++) {
      cycle(lock, counter);
    }
    return CYCLES * 1e9 / (System.nanoTime() - start);
  }

  private static void cycle(DistributedLock lock, Counter counter) throws InterruptedException {
    try (Lease lease = lock.acquire()) {
      counter.increment();
    }
  }

  /** A plain counter that also counts the holders inside at once: overlapping holders lose increments or show. */
  private static final class Counter {
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger mostInside = new AtomicInteger();
    private long count;

    void increment() {
      mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
      count++;
      inside.decrementAndGet();
    }

    long count() {
      return count;
    }

    int mostInsideAtOnce() {
      return mostInside.get();
    }
  }
}
