package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockHolder;
import dev.baton.LockObserver;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.LockTimeoutException;
import dev.baton.LostReason;
import dev.baton.Primitive;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several keys at once ({@link LockClient#multiLock}): every key or none, in one global key order within one deadline,
 * so that overlapping sets never deadlock; each key's ordinary entry, so that a lock and a multi-lock of a key exclude
 * each other; the keys taken released when a later one is not had; one loss told once. Part of the
 * {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractMultiLock extends ContractGroup {
  /** How much longer than its wait time a multi-lock's acquire may take to give up: one deadline, not one per key. */
  private static final Duration GIVES_UP_WITHIN = Duration.ofMillis(1500);
  private static final Duration ALL_DONE = Duration.ofMinutes(2);

  ContractMultiLock(LockClientContract contract) {
    super(contract);
  }

  private List<String> keys(String... names) {
    return Arrays.stream(names).map(name -> key + "/" + name).toList();
  }

  private String key(String name) {
    return key + "/" + name;
  }

  @Test
  @Timeout(30)
  void holdsEveryKeyOrNone() throws Exception {
    LockClient client = newClient();
    LockClient other = newClient();
    DistributedLock multi = client.multiLock(keys("c", "a", "b"));
    assertThat(multi.keys()).as("keys in their global order").containsExactlyElementsOf(keys("a", "b", "c"));
    try (Lease b = other.lock(key("b")).acquire(LONG_WAIT)) {
      assertThat(multi.tryAcquire()).as("a try while one key is held elsewhere").isEmpty();
      assertThatThrownBy(() -> multi.acquire(Duration.ofMillis(200))).isInstanceOf(LockTimeoutException.class)
          .hasMessageContaining(key("b"));
      assertThat(refuses(other.lock(key("a")))).as("key a, taken and let go by the failed acquire").isFalse();
      assertThat(refuses(other.lock(key("c")))).as("key c, never taken").isFalse();
      assertThat(b.isHeld()).isTrue();
    }
    try (Lease lease = multi.acquire(LONG_WAIT)) {
      assertThat(lease.isHeld()).isTrue();
      assertThat(lease.keys()).containsExactlyElementsOf(keys("a", "b", "c"));
      assertThat(lease.key()).isEqualTo(key("a"));
      for (String each : keys("a", "b", "c")) {
        assertThat(refuses(other.lock(each))).as("another client's try on %s", each).isTrue();
        assertThat(other.status(each).isHeld()).as("status of %s", each).isTrue();
      }
      List<Long> tokens = keys("a", "b", "c").stream().map(lease::fencingToken).toList();
      assertThat(lease.fencingToken()).as("the largest of the keys' tokens %s", tokens)
          .isEqualTo(Collections.max(tokens));
      assertThatThrownBy(() -> lease.fencingToken(key("d"))).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(key("d"));
    }
    for (String each : keys("a", "b", "c")) {
      assertThat(refuses(other.lock(each))).as("%s after the release", each).isFalse();
    }
  }

  /** A key taken before one that is not had is free at once for another client, and the wait is one deadline. */
  @Test
  @Timeout(30)
  void theKeysTakenAreReleasedWhenALaterKeyIsNotHadWithinTheOneDeadline() throws Exception {
    LockClient client = newClient();
    LockClient other = newClient();
    Duration wait = Duration.ofMillis(1500);
    try (Lease c = other.lock(key("c")).acquire(LONG_WAIT)) {
      long start = System.nanoTime();
      BackgroundCall<Lease> waiting = BackgroundCall.start("multi", () -> client.multiLock(keys("a", "b", "c"))
          .acquire(wait));
      await("keys a and b taken while c is waited for").atMost(PROMPTLY)
          .until(() -> refuses(other.lock(key("a"))) && refuses(other.lock(key("b"))));
      Throwable failure = waiting.failure(wait.plus(GIVES_UP_WITHIN).plus(PROMPTLY));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(failure).isInstanceOf(LockTimeoutException.class).hasMessageContaining(key("c"));
      assertThat(took).as("one deadline for every key").isLessThan(wait.plus(GIVES_UP_WITHIN));
      assertThat(refuses(other.lock(key("a")))).as("key a, right after the acquire gave up").isFalse();
      assertThat(refuses(other.lock(key("b")))).as("key b, right after the acquire gave up").isFalse();
      assertThat(c.isHeld()).isTrue();
    }
    assertThat(client.keysInUse()).as("keys the failed client keeps state for").isZero();
  }

  @Test
  @Timeout(30)
  void anInterruptedAcquireReleasesTheKeysTaken() throws Exception {
    LockClient client = newClient();
    LockClient other = newClient();
    try (Lease b = other.lock(key("b")).acquire(LONG_WAIT)) {
      BackgroundCall<Lease> waiting = BackgroundCall.start("multi", () -> client.multiLock(keys("a", "b")).acquire());
      await("key a taken while b is waited for").atMost(PROMPTLY).until(() -> refuses(other.lock(key("a"))));
      waiting.awaitBlocked();
      waiting.interrupt();
      assertThat(waiting.failure(PROMPTLY)).isInstanceOf(InterruptedException.class);
      assertThat(refuses(other.lock(key("a")))).as("key a after the interrupt").isFalse();
    }
    await("nothing left at the store").atMost(PROMPTLY)
        .until(() -> entriesAtStore(key("a")) == 0 && entriesAtStore(key("b")) == 0);
  }

  /** Two clients asking for the same keys given in opposite orders, and three for a cycle of pairs: no deadlock. */
  @Test
  @Timeout(120)
  void overlappingSetsNeverDeadlock() throws Exception {
    List<List<String>> sets = List.of(keys("a", "b"), keys("b", "a"), keys("b", "c"), keys("c", "a"));
    List<MutualExclusionChecker> checkers = List.of(new MutualExclusionChecker(), new MutualExclusionChecker(),
        new MutualExclusionChecker());
    List<String> all = keys("a", "b", "c");
    int rounds = 30;
    List<BackgroundCall<Void>> workers = new ArrayList<>();
    for (int s = 0; s < sets.size(); s++) {
      DistributedLock multi = newClient().multiLock(sets.get(s), baseOptions().withWaitTime(LONG_WAIT));
      workers.add(BackgroundCall.start("multi-" + s, () -> {
        for (int i = 0; i < rounds; i++) {
          try (Lease lease = multi.acquire()) {
            lease.keys().forEach(each -> checkers.get(all.indexOf(each)).criticalSection());
          }
        }
        return null;
      }));
    }
    awaitAll(workers, ALL_DONE);
    int[] expected = {3 * rounds, 3 * rounds, 2 * rounds};
    for (int k = 0; k < checkers.size(); k++) {
      assertThat(checkers.get(k).mostInsideAtOnce()).as("holders of %s at once", all.get(k)).isEqualTo(1);
      assertThat(checkers.get(k).count()).as("increments of %s", all.get(k)).isEqualTo(expected[k]);
    }
  }

  @Test
  @Timeout(120)
  void aLockAndAMultiLockOfAKeyExcludeEachOther() throws Exception {
    LockClient client = newClient();
    LockClient other = newClient();
    try (Lease multi = client.multiLock(keys("a", "b")).acquire(LONG_WAIT)) {
      assertThat(refuses(other.lock(key("a")))).as("a lock of a key a multi-lock holds").isTrue();
      assertThat(refuses(client.lock(key("b")))).as("the same client's lock of a key its multi-lock holds").isTrue();
      assertThat(multi.isHeld()).isTrue();
    }
    try (Lease single = other.lock(key("b")).acquire(LONG_WAIT)) {
      assertThat(refuses(client.multiLock(keys("a", "b")))).as("a multi-lock of a key a lock holds").isTrue();
      assertThat(single.isHeld()).isTrue();
    }
    contend("shared-key", List.of(client.lock(key("a")), other.lock(key("a")), client.multiLock(keys("a", "b")),
        other.multiLock(keys("b", "a"))), 2, 20, ALL_DONE);
  }

  @Test
  @Timeout(30)
  void losingOneKeyEndsTheLeaseOnceAndReleasesTheOthers() throws Exception {
    LockClient other = newClient();
    RecordingLostListener lost = new RecordingLostListener();
    Lease lease = newClient().multiLock(keys("a", "b", "c")).acquire(waitingWithTtl(SHORT_TTL));
    lease.onLost(lost);
    removeEntryBehindOurBack(key("b"));
    await().atMost(PROMPTLY).untilAsserted(() -> assertThat(lost.reasons()).containsExactly(LostReason.ENTRY_REMOVED));
    assertThat(lease.isHeld()).isFalse();
    assertThat(lease.state()).isEqualTo(LeaseState.LOST);
    await("the other keys released").atMost(PROMPTLY)
        .until(() -> !refuses(other.lock(key("a"))) && !refuses(other.lock(key("c"))));
    await("the listener called only once").during(A_WHILE).atMost(PROMPTLY).until(() -> lost.reasons().size() == 1);
    lease.close();
    assertThat(lease.state()).isEqualTo(LeaseState.LOST);
    assertThat(lost.reasons()).hasSize(1);
  }

  @Test
  @Timeout(30)
  void aHeldMultiLockIsRenewedAndItsHoldTimeoutCountsFromWhenEveryKeyIsHeld() throws Exception {
    LockClient client = newClient();
    LockClient other = newClient();
    Lease renewed = client.multiLock(keys("r1", "r2")).acquire(waitingWithTtl(SHORT_TTL));
    await("held over several ttls").during(SHORT_TTL.multipliedBy(3)).atMost(SHORT_TTL.multipliedBy(3).plus(PROMPTLY))
        .until(renewed::isHeld);
    renewed.close();

    Duration hold = Duration.ofMillis(800);
    RecordingLostListener lost = new RecordingLostListener();
    Lease b = other.lock(key("b")).acquire(LONG_WAIT);
    BackgroundCall<Lease> waiting = BackgroundCall.start("multi", () -> client.multiLock(keys("a", "b"))
        .acquire(baseOptions().withWaitTime(LONG_WAIT).withHoldTimeout(hold)));
    await("key a taken while b is waited for").atMost(PROMPTLY).until(() -> refuses(other.lock(key("a"))));
    waiting.awaitBlocked(hold.plusMillis(200)); // key a is held for longer than the hold timeout before b is
    b.close();
    Lease lease = waiting.result(PROMPTLY);
    lease.onLost(lost);
    assertThat(lease.isHeld()).as("held, its hold counted from when both keys were").isTrue();
    assertThat(lease.holdRemaining()).isPresent();
    await("the hold timeout").atMost(hold.plus(PROMPTLY)).until(() -> lease.state() == LeaseState.EXPIRED);
    await().atMost(PROMPTLY).untilAsserted(() -> assertThat(lost.reasons()).containsExactly(LostReason.HOLD_TIMEOUT));
    await("both keys free").atMost(PROMPTLY)
        .until(() -> !refuses(other.lock(key("a"))) && !refuses(other.lock(key("b"))));
  }

  @Test
  @Timeout(30)
  void acquireAsyncTakesEveryKeyAndACancelLeavesNothing() throws Exception {
    LockClient client = newClient();
    LockClient other = newClient();
    DistributedLock multi = client.multiLock(keys("a", "b", "c"));
    assertThat(multi.acquireAsync()).succeedsWithin(PROMPTLY).satisfies(lease -> {
      assertThat(lease.keys()).containsExactlyElementsOf(keys("a", "b", "c"));
      assertThat(refuses(other.lock(key("c")))).isTrue();
      lease.close();
    });
    try (Lease b = other.lock(key("b")).acquire(LONG_WAIT)) {
      CompletableFuture<Lease> timingOut = multi.acquireAsync(baseOptions().withWaitTime(Duration.ofMillis(300)));
      assertThat(timingOut).failsWithin(PROMPTLY).withThrowableOfType(ExecutionException.class)
          .withCauseInstanceOf(LockTimeoutException.class);
      assertThat(refuses(other.lock(key("a")))).as("key a after the async acquire timed out").isFalse();

      CompletableFuture<Lease> pending = multi.acquireAsync();
      await("key a taken while b is waited for").atMost(PROMPTLY).until(() -> refuses(other.lock(key("a"))));
      assertThat(pending.cancel(true)).isTrue();
      await("key a released after the cancel").atMost(PROMPTLY).until(() -> !refuses(other.lock(key("a"))));
      assertThat(b.isHeld()).isTrue();
    }
    await("nothing left at the store").atMost(PROMPTLY).until(() -> keys("a", "b", "c").stream()
        .allMatch(each -> entriesAtStore(each) == 0));
    await("no key kept in use by the client").atMost(PROMPTLY).until(() -> client.keysInUse() == 0);
    Optional<Lease> again = multi.tryAcquire();
    assertThat(again).as("the cancelling client's try").isPresent();
    again.get().close();
  }

  /**
   * Several clients, each with several threads, taking 2 to 4 random keys of ten with a multi-lock (or one with a lock)
   * and updating a counter per key with a read-pause-write: every counter exact, every step done.
   */
  @Test
  @Timeout(180)
  void randomOverlappingSetsUpdateEveryCounterExactly() throws Exception {
    int keyCount = 10;
    int steps = 25;
    List<String> all = new ArrayList<>();
    List<MutualExclusionChecker> checkers = new ArrayList<>();
    for (int k = 0; k < keyCount; k++) {
      all.add(key("k" + k));
      checkers.add(new MutualExclusionChecker());
    }
    AtomicLongArray expected = new AtomicLongArray(keyCount);
    List<BackgroundCall<Void>> workers = new ArrayList<>();
    LockOptions waiting = baseOptions().withWaitTime(ALL_DONE);
    for (int c = 0; c < 3; c++) {
      LockClient client = newClient();
      for (int t = 0; t < 4; t++) {
        boolean lockView = t % 2 == 0;
        workers.add(BackgroundCall.start("client-" + c + "-" + t, () -> {
          ThreadLocalRandom random = ThreadLocalRandom.current();
          for (int i = 0; i < steps; i++) {
            List<String> chosen = new ArrayList<>(all);
            Collections.shuffle(chosen, random);
            chosen = chosen.subList(0, random.nextInt(8) == 0 ? 1 : 2 + random.nextInt(3));
            DistributedLock lock = chosen.size() == 1 ? client.lock(chosen.get(0), waiting)
                : client.multiLock(chosen, waiting);
            List<String> held = chosen;
            Runnable update = () -> held.forEach(each -> {
              checkers.get(all.indexOf(each)).criticalSection();
              expected.incrementAndGet(all.indexOf(each));
            });
            if (lockView) {
              lock.lock();
              try {
                update.run();
              } finally {
                lock.unlock();
              }
            } else {
              try (Lease lease = lock.acquire()) {
                update.run();
              }
            }
          }
          return null;
        }));
      }
    }
    awaitAll(workers, ALL_DONE);
    for (int k = 0; k < keyCount; k++) {
      assertThat(checkers.get(k).mostInsideAtOnce()).as("holders of %s at once", all.get(k)).isEqualTo(1);
      assertThat(checkers.get(k).count()).as("counter of %s", all.get(k)).isEqualTo(expected.get(k));
    }
  }

  /**
   * The proof, across processes: three JVMs of four threads, each step taking 2 to 4 random keys of ten with a
   * multi-lock (or one key with a lock) and updating a counter per key, a file, with a read-pause-write. Every counter
   * ends exact (a holder that overlapped another would have lost an increment) and no step failed (each acquire waits
   * up to a minute: a deadlock would fail it).
   */
  @Test
  @Timeout(150)
  void threeProcessesOfFourThreadsUpdateEveryCounterExactly(@TempDir Path counters) throws Exception {
    assumeTrue(reachableFromOtherProcesses(), "the store lives in this JVM");
    int processes = 3;
    int threads = 4;
    int steps = 25;
    for (int k = 0; k < MultiLockWorkerMain.KEYS; k++) {
      Files.writeString(counters.resolve(MultiLockWorkerMain.keyName(k)), "0");
    }
    List<ForkedMain> workers = new ArrayList<>();
    try {
      for (int p = 0; p < processes; p++) {
        workers.add(ForkedMain.start(MultiLockWorkerMain.class, List.of(factoryClass().getName(), target(), key,
            counters.toString(), Integer.toString(threads), Integer.toString(steps),
            Long.toString(Duration.ofMinutes(1).toMillis())), MultiLockWorkerMain.READY, Duration.ofSeconds(30),
            "connect"));
      }
      Files.writeString(counters.resolve(MultiLockWorkerMain.GO), "");
      long[] expected = new long[MultiLockWorkerMain.KEYS];
      for (ForkedMain worker : workers) {
        String[] counts = worker.awaitLine(MultiLockWorkerMain.DONE, Duration.ofSeconds(120), "finish its steps")
            .split(",");
        for (int k = 0; k < MultiLockWorkerMain.KEYS; k++) {
          expected[k] += Long.parseLong(counts[k]);
        }
      }
      assertThat(Arrays.stream(expected).sum()).as("increments made").isGreaterThanOrEqualTo(
          2L * processes * threads * steps * 7 / 8);
      for (int k = 0; k < MultiLockWorkerMain.KEYS; k++) {
        String name = MultiLockWorkerMain.keyName(k);
        assertThat(Long.parseLong(Files.readString(counters.resolve(name)).trim()))
            .as("counter of %s", name).isEqualTo(expected[k]);
      }
    } finally {
      workers.forEach(ForkedMain::kill);
    }
  }

  @Test
  @Timeout(30)
  void theLockViewIsReentrantForItsSetAndNeverWaitsForItsOwnThread() throws Exception {
    LockClient client = newClient();
    LockClient other = newClient();
    DistributedLock multi = client.multiLock(keys("a", "b"));
    multi.lock();
    multi.lock();
    multi.unlock();
    assertThat(multi.isHeldByCurrentThread()).isTrue();
    assertThat(refuses(other.lock(key("b")))).as("key b while one hold remains").isTrue();
    multi.unlock();
    assertThat(multi.isHeldByCurrentThread()).isFalse();
    assertThat(refuses(other.lock(key("b")))).as("key b after the last unlock").isFalse();
    assertThatThrownBy(multi::unlock).isInstanceOf(IllegalMonitorStateException.class);

    DistributedLock single = client.lock(key("b"));
    single.lock();
    try {
      assertThatThrownBy(multi::lock).isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining(key("b"));
    } finally {
      single.unlock();
    }
    multi.lock();
    try {
      assertThatThrownBy(single::lock).as("one of its keys alone").isInstanceOf(IllegalMonitorStateException.class)
          .hasMessageContaining(key("b"));
      assertThatThrownBy(client.multiLock(keys("b", "c"))::lock).as("an overlapping multi-lock")
          .isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining(key("b"));
    } finally {
      multi.unlock();
    }
    single.lock();
    single.unlock();
  }

  @Test
  @Timeout(30)
  void observersAreToldEachKeyAsAMultiLock() throws Exception {
    LockClient client = newClient();
    List<String> acquired = new CopyOnWriteArrayList<>();
    List<String> ended = new CopyOnWriteArrayList<>();
    client.observe(new LockObserver() {
      @Override
      public void acquired(Lease lease, Primitive primitive, Duration waited) {
        acquired.add(primitive + " " + lease.key());
      }

      @Override
      public void ended(Lease lease, Primitive primitive, Duration heldFor, LostReason reason) {
        ended.add(primitive + " " + lease.key() + " " + reason);
      }
    });
    client.multiLock(keys("b", "a")).acquire(LONG_WAIT).close();
    assertThat(acquired).containsExactly("MULTI_LOCK " + key("a"), "MULTI_LOCK " + key("b"));
    await().atMost(PROMPTLY).untilAsserted(() -> assertThat(ended)
        .containsExactlyInAnyOrder("MULTI_LOCK " + key("a") + " null", "MULTI_LOCK " + key("b") + " null"));
  }

  /**
   * Every key of a multi-lock names it in its holder record, alike ({@link LockHolder.MultiLock}), so that
   * {@code status} and {@code list} show the keys one holder holds together; a lock on its own names none.
   */
  @Test
  @Timeout(30)
  void statusAndListShowAMultiLocksKeysAsHeldTogether() throws Exception {
    LockClient client = newClient();
    LockClient observer = newClient();
    List<String> together = keys("a", "b", "c");
    LockHolder.MultiLock expected = LockHolder.MultiLock.of(together);
    try (Lease multi = client.multiLock(List.of(key("c"), key("a"), key("b"))).acquire(LONG_WAIT);
        Lease alone = client.lock(key("d")).acquire(LONG_WAIT)) {
      for (String held : together) {
        LockStatus status = observer.status(held);
        assertThat(status.fencingToken()).as("token of %s", held).hasValue(multi.fencingToken(held));
        assertThat(status.holder()).as("who holds %s", held).hasValueSatisfying(holder -> {
          assertThat(holder.multiLock()).as("the multi-lock %s is held for", held).contains(expected);
          assertThat(holder.pid()).isEqualTo(ProcessHandle.current().pid());
        });
      }
      assertThat(expected.keys()).isEqualTo(3);
      assertThat(observer.list(key + "/", 10)).extracting(LockStatus::key)
          .containsExactly(key("a"), key("b"), key("c"), key("d"));
      assertThat(observer.list(key + "/", 10)).extracting(status -> status.holder().flatMap(LockHolder::multiLock))
          .containsExactly(Optional.of(expected), Optional.of(expected), Optional.of(expected), Optional.empty());
      assertThat(alone.isHeld()).isTrue();
    }
  }

  /**
   * A key's entry passes between the threads of a client whatever keys each holds it for, its holder record rewritten
   * as it passes, so that {@code status} shows the keys it is held for now (one write later, awaited with a bound):
   * from a multi-lock over {a,b} to one over {a,c}, to a lock on its own, and back to a multi-lock. A store that cannot
   * rewrite the record ({@link LockClientContract#rewritesHolderRecords}) gives such a holder an entry of its own, which
   * names it. Either way the token {@code status} shows is the holder's.
   */
  @Test
  @Timeout(60)
  void aKeyPassingBetweenThreadsToAHolderForOtherKeysShowsThemSoonAfter() throws Exception {
    LockClient client = newClient();
    LockClient observer = newClient();
    List<String> pair = keys("a", "b");
    List<String> other = keys("a", "c");

    Lease first = client.multiLock(pair).acquire(LONG_WAIT);
    BackgroundCall<Lease> overlapping = BackgroundCall.start("other-set",
        () -> client.multiLock(List.of(key("c"), key("a"))).acquire(LONG_WAIT));
    overlapping.awaitBlocked();
    first.close();
    try (Lease second = overlapping.result(LONG_WAIT)) {
      passedOn(first.fencingToken(key("a")), second.fencingToken(key("a")));
      showsSoon(observer, key("a"), Optional.of(LockHolder.MultiLock.of(other)), second.fencingToken(key("a")));
      showsSoon(observer, key("c"), Optional.of(LockHolder.MultiLock.of(other)), second.fencingToken(key("c")));

      BackgroundCall<Lease> single = BackgroundCall.start("single", () -> client.lock(key("a")).acquire(LONG_WAIT));
      single.awaitBlocked();
      second.close();
      try (Lease alone = single.result(LONG_WAIT)) {
        passedOn(second.fencingToken(key("a")), alone.fencingToken());
        showsSoon(observer, key("a"), Optional.empty(), alone.fencingToken());

        BackgroundCall<Lease> again = BackgroundCall.start("pair-again", () -> client.multiLock(pair).acquire(LONG_WAIT));
        again.awaitBlocked();
        alone.close();
        try (Lease third = again.result(LONG_WAIT)) {
          passedOn(alone.fencingToken(), third.fencingToken(key("a")));
          for (String held : pair) {
            showsSoon(observer, held, Optional.of(LockHolder.MultiLock.of(pair)), third.fencingToken(held));
          }
          assertThat(refuses(observer.lock(key("a")))).as("another client's try on a").isTrue();
        }
      }
    }
    await("nothing left at the store").atMost(PROMPTLY)
        .until(() -> entriesAtStore(key("a")) == 0 && entriesAtStore(key("b")) == 0 && entriesAtStore(key("c")) == 0);
  }

  /** The entry passed on locally (the same token) where the store rewrites records, else a new one (a larger token). */
  private void passedOn(long before, long after) {
    if (rewritesHolderRecords()) {
      assertThat(after).as("handed over: the same entry").isEqualTo(before);
    } else {
      assertThat(after).as("an entry of its own").isGreaterThan(before);
    }
  }

  private static void showsSoon(LockClient observer, String key, Optional<LockHolder.MultiLock> keys, long token) {
    await("the record of " + key + " names " + keys).atMost(PROMPTLY)
        .until(() -> observer.status(key).holder().flatMap(LockHolder::multiLock).equals(keys));
    assertThat(observer.status(key).fencingToken()).as("token of %s", key).hasValue(token);
  }

  @Test
  @Timeout(30)
  void badKeysAreRejectedNamingThemAndDuplicatesAreMerged() throws Exception {
    LockClient client = newClient();
    assertThatThrownBy(() -> client.multiLock(List.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one key");
    assertThatThrownBy(() -> client.multiLock(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one key");
    assertThatThrownBy(() -> client.multiLock(Arrays.asList(key("a"), null)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Key 1").hasMessageContaining("null");
    assertThatThrownBy(() -> client.multiLock(List.of(key("a"), " "))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("' '");
    assertThatThrownBy(() -> client.multiLock(keys("a", "b"), null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("options");
    assertThat(client.multiLock(keys("b", "a", "b")).keys()).containsExactlyElementsOf(keys("a", "b"));

    DistributedLock one = client.multiLock(keys("a", "a"));
    assertThat(one.keys()).containsExactly(key("a"));
    try (Lease lease = one.acquire(LONG_WAIT)) {
      assertThat(lease.keys()).containsExactly(key("a"));
      assertThat(lease.fencingToken(key("a"))).isEqualTo(lease.fencingToken());
      assertThat(refuses(newClient().lock(key("a")))).as("a multi-lock of one key is its lock").isTrue();
    }
  }
}
