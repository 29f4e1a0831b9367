package dev.baton.testkit;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.DistributedReadWriteLock;
import dev.baton.DistributedSemaphore;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockObserver;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.Primitive;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Asynchronous acquires at scale: thousands pending cost a few threads, not one each, and complete with exact mutual
 * exclusion once the keys are free; cancelled or failed by a closing client, they leave nothing behind. Part of the
 * {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractAsyncWaiting extends ContractGroup {
  private static final int PENDING = 2_000;
  private static final int KEYS = 20;
  /** Threads that thousands of pending acquires may add: each client's few acquire threads, and some slack. */
  private static final int MOST_EXTRA_THREADS = 40;
  /**
   * Threads the completions may add besides, as they run: each callback here blocks in its critical section and its
   * release, on a completion thread, while the next holder of its key may be completing on another.
   */
  private static final int MOST_COMPLETION_THREADS = 2 * KEYS;
  private static final Duration ALL_DONE = Duration.ofMinutes(2);
  /** More than a client's acquire threads. */
  private static final int BLOCKING_CALLBACKS = 8;

  ContractAsyncWaiting(LockClientContract contract) {
    super(contract);
  }

  @Test
  @Timeout(180)
  void thousandsOfPendingAcquiresCostAFewThreadsAndAllCompleteExclusively() throws Exception {
    LockClient holder = newClient();
    List<LockClient> waiters = List.of(newClient(), newClient());
    warmUp(waiters);
    List<Lease> held = new ArrayList<>();
    List<MutualExclusionChecker> checkers = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      held.add(holder.lock(key + "/" + k).acquire(LONG_WAIT));
      checkers.add(new MutualExclusionChecker());
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int before = threads.getThreadCount();
    threads.resetPeakThreadCount();
    LockOptions waiting = baseOptions().withWaitTime(ALL_DONE);
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (int i = 0; i < PENDING; i++) {
      MutualExclusionChecker checker = checkers.get(i % KEYS);
      DistributedLock lock = waiters.get(i % waiters.size()).lock(key + "/" + i % KEYS);
      done.add(lock.acquireAsync(waiting).thenAccept(underLease(lease -> checker.criticalSection())));
    }
    await("acquires pending while the keys are held").during(A_WHILE).atMost(PROMPTLY)
        .until(() -> done.stream().noneMatch(CompletableFuture::isDone));
    int whilePending = threads.getPeakThreadCount();
    held.forEach(Lease::close);
    CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(ALL_DONE.toMillis(), MILLISECONDS);
    assertThat(whilePending - before).as("threads added by %d pending acquires (%d before)", PENDING, before)
        .isLessThanOrEqualTo(MOST_EXTRA_THREADS);
    assertThat(threads.getPeakThreadCount() - before).as("threads added until all %d completed", PENDING)
        .isLessThanOrEqualTo(MOST_EXTRA_THREADS + MOST_COMPLETION_THREADS);
    for (MutualExclusionChecker checker : checkers) {
      assertThat(checker.mostInsideAtOnce()).as("holders inside at once").isEqualTo(1);
      assertThat(checker.count()).as("increments not lost").isEqualTo(PENDING / KEYS);
    }
  }

  @Test
  @Timeout(120)
  void pendingReadWriteAndPermitAcquiresCompleteWithTheirExclusion() throws Exception {
    assumeSharedEntries();
    LockClient holder = newClient();
    List<LockClient> waiters = List.of(newClient(), newClient());
    SharedHoldChecker readWrite = new SharedHoldChecker();
    SharedHoldChecker permits = new SharedHoldChecker();
    Lease writing = holder.readWriteLock(key + "/rw").writeLock().acquire(LONG_WAIT);
    List<Lease> allPermits = new ArrayList<>();
    for (int p = 0; p < 2; p++) {
      allPermits.add(holder.semaphore(key + "/permits", 2).acquire(LONG_WAIT));
    }
    List<CompletableFuture<Void>> done = new ArrayList<>();
    int writers = 0;
    for (int i = 0; i < 200; i++) {
      LockClient client = waiters.get(i % waiters.size());
      DistributedReadWriteLock lock = client.readWriteLock(key + "/rw");
      if (i % 4 == 0) {
        writers++;
        done.add(lock.writeLock().acquireAsync().thenAccept(underLease(lease -> readWrite.exclusiveSection())));
      } else {
        done.add(lock.readLock().acquireAsync().thenAccept(underLease(lease -> readWrite.sharedSection())));
      }
      DistributedSemaphore semaphore = client.semaphore(key + "/permits", 2);
      done.add(semaphore.acquireAsync().thenAccept(underLease(lease -> permits.sharedSection())));
    }
    await("acquires pending while held").during(A_WHILE).atMost(PROMPTLY)
        .until(() -> done.stream().noneMatch(CompletableFuture::isDone));
    writing.close();
    allPermits.forEach(Lease::close);
    CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(ALL_DONE.toMillis(), MILLISECONDS);
    assertThat(readWrite.violations()).as("a writer met another holder").isZero();
    assertThat(readWrite.count()).as("writers' increments not lost").isEqualTo(writers);
    assertThat(permits.mostSharedAtOnce()).as("permit holders inside at once").isLessThanOrEqualTo(2);
  }

  /**
   * A callback that blocks (here, more of them than the client has acquire threads, each until the test lets it go)
   * holds up no other acquire of its client: futures complete on threads of their own. The keys are held by another
   * client until every callback is attached, so that no acquire completes before its callback is there: a callback
   * attached to a future already complete would run on the test's own thread, and block it.
   */
  @Test
  @Timeout(60)
  void callbacksThatBlockHoldUpNoOtherAcquireOfTheClient() throws Exception {
    LockClient client = newClient();
    LockClient holder = newClient();
    List<Lease> held = new ArrayList<>();
    for (int i = 0; i < BLOCKING_CALLBACKS; i++) {
      held.add(holder.lock(key + "/blocking/" + i).acquire(LONG_WAIT));
    }
    CountDownLatch letGo = new CountDownLatch(1);
    CountDownLatch blocking = new CountDownLatch(BLOCKING_CALLBACKS);
    List<CompletableFuture<Void>> callbacks = new ArrayList<>();
    for (int i = 0; i < BLOCKING_CALLBACKS; i++) {
      callbacks.add(client.lock(key + "/blocking/" + i).acquireAsync().thenAccept(underLease(lease -> {
        blocking.countDown();
        awaitQuietly(letGo);
      })));
    }
    held.forEach(Lease::close);
    try {
      assertThat(blocking.await(PROMPTLY.toMillis(), MILLISECONDS)).as("every callback blocking").isTrue();
      assertThat(client.lock(key + "/free").acquireAsync()).as("another acquire of the client")
          .succeedsWithin(PROMPTLY).satisfies(Lease::close);
    } finally {
      letGo.countDown();
    }
    CompletableFuture.allOf(callbacks.toArray(CompletableFuture[]::new)).get(PROMPTLY.toMillis(), MILLISECONDS);
  }

  @Test
  @Timeout(60)
  void cancellingManyPendingAcquiresLeavesNothingBehind() throws Exception {
    List<LockClient> waiters = List.of(newClient(), newClient());
    List<CompletableFuture<Lease>> pending = new ArrayList<>();
    try (Lease held = newClient().lock(key).acquire(LONG_WAIT)) {
      for (int i = 0; i < 200; i++) {
        pending.add(waiters.get(i % waiters.size()).lock(key).acquireAsync());
      }
      await("acquires pending while the lock is held").during(A_WHILE).atMost(PROMPTLY)
          .until(() -> pending.stream().noneMatch(CompletableFuture::isDone));
      pending.forEach(future -> assertThat(future.cancel(true)).isTrue());
      assertThat(held.isHeld()).as("the holder's lease").isTrue();
    }
    await("no entries left after the release").atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
    for (LockClient waiter : waiters) {
      Optional<Lease> next = waiter.lock(key).tryAcquire();
      assertThat(next).as("a cancelling client's tryAcquire").isPresent();
      next.get().close();
    }
  }

  @Test
  @Timeout(60)
  void closingTheClientFailsItsPendingAcquires() throws Exception {
    LockClient closing = newClient();
    List<CompletableFuture<Lease>> pending = new ArrayList<>();
    try (Lease held = newClient().lock(key).acquire(LONG_WAIT)) {
      for (int i = 0; i < 100; i++) {
        pending.add(closing.lock(key).acquireAsync());
      }
      await("acquires pending while the lock is held").during(A_WHILE).atMost(PROMPTLY)
          .until(() -> pending.stream().noneMatch(CompletableFuture::isDone));
      closing.close();
      for (CompletableFuture<Lease> future : pending) {
        assertThat(future).failsWithin(PROMPTLY).withThrowableOfType(ExecutionException.class)
            .withCauseInstanceOf(IllegalStateException.class);
      }
      assertThat(entriesAtStore(key)).as("entries while the holder holds").isEqualTo(1);
    }
    await("no entries left after the release").atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  /**
   * An asynchronous acquire has no acquiring thread: observers are told its start and outcome together on one thread,
   * as {@link LockObserver} promises, with the wait counted from the call.
   */
  @Test
  @Timeout(30)
  void observersAreToldAnAsynchronousAcquiresStartAndOutcomeOnOneThread() throws Exception {
    LockClient client = newClient();
    Map<Thread, List<String>> toldPerThread = new ConcurrentHashMap<>();
    List<Duration> waits = new CopyOnWriteArrayList<>();
    client.observe(new LockObserver() {
      @Override
      public void acquiring(String key, Primitive primitive) {
        tell("acquiring");
      }

      @Override
      public void acquired(Lease lease, Primitive primitive, Duration waited) {
        tell("acquired");
        waits.add(waited);
      }

      @Override
      public void timedOut(String key, Primitive primitive, Duration waited) {
        tell("timed out");
        waits.add(waited);
      }

      private void tell(String event) {
        toldPerThread.computeIfAbsent(Thread.currentThread(), thread -> new CopyOnWriteArrayList<>()).add(event);
      }
    });
    CompletableFuture<Lease> acquired;
    try (Lease held = newClient().lock(key).acquire(LONG_WAIT)) {
      acquired = client.lock(key).acquireAsync();
      CompletableFuture<Lease> timedOut = client.lock(key).acquireAsync(baseOptions().withWaitTime(A_WHILE));
      assertThat(timedOut).failsWithin(PROMPTLY).withThrowableOfType(ExecutionException.class)
          .withCauseInstanceOf(LockTimeoutException.class);
    }
    acquired.get(LONG_WAIT.toMillis(), MILLISECONDS).close();
    assertThat(waits).as("waits told").hasSize(2).allSatisfy(waited -> assertThat(waited).isGreaterThanOrEqualTo(A_WHILE));
    toldPerThread.forEach((thread, told) -> {
      assertThat(told).as("told on %s", thread.getName()).hasSizeGreaterThanOrEqualTo(2);
      for (int i = 0; i < told.size(); i++) {
        assertThat(told.get(i)).as("event %d on %s: %s", i, thread.getName(), told)
            .isIn(i % 2 == 0 ? List.of("acquiring") : List.of("acquired", "timed out"));
      }
    });
  }

  /** Each client takes and releases a lock, blocking and asynchronously, so that its threads exist before counting. */
  private void warmUp(List<LockClient> clients) throws Exception {
    for (LockClient client : clients) {
      client.lock(key + "/warm-up").acquire(LONG_WAIT).close();
      client.lock(key + "/warm-up").acquireAsync().get(LONG_WAIT.toMillis(), MILLISECONDS).close();
    }
  }

  /** Runs {@code work} under the lease, then releases it. */
  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Consumer<Lease> underLease(Consumer<Lease> work) {
    return lease -> {
      try {
        work.accept(lease);
      } finally {
        lease.close();
      }
    };
  }
}
