package dev.baton.virtualthreads;

import static java.util.stream.Collectors.counting;
import static java.util.stream.Collectors.groupingBy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.connect.LockClients;
import dev.baton.testkit.MutualExclusionChecker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every store does for virtual threads: thousands of them, blocking in {@code acquire()} on two clients, take
 * turns on a few dozen keys with the counters the locks guard exact, and none is ever pinned to its carrier with
 * Baton's code on its stack (JFR's {@code jdk.VirtualThreadPinned}, recorded with no threshold); a lock held on a
 * virtual thread names it in {@code status} and {@code list}. A subclass gives the store.
 */
@ExtendWith(VirtualThreadJdk.class)
abstract class VirtualThreadContract {
  private static final Logger log = LoggerFactory.getLogger(VirtualThreadContract.class);

  /** The keys the threads share. */
  static final int KEYS = 50;
  /** The virtual threads of the workload. */
  static final int THREADS = 10_000;
  /** The virtual threads of the round before the recording. */
  private static final int WARM_UP_THREADS = 2_000;

  private static final Duration WORKLOAD_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration HOLD_TIMEOUT = Duration.ofSeconds(30);

  private final String prefix = "vt-" + UUID.randomUUID().toString().substring(0, 8) + "-";

  /** The URI of the store under test, for {@link LockClients#connect(String)}. */
  abstract String uri();

  /**
   * The workload, recorded. The JVM pins a virtual thread while it loads a class, links a call site or waits for
   * another thread to initialize a class, whatever the code, once: a first, smaller round before the recording does
   * most of that, and the pins of what is left ({@link Pin#loadsClass()}) are only logged.
   */
  @Test
  void virtualThreadsTakeTurnsWithExactCountersAndAreNeverPinnedInBaton() throws Exception {
    List<String> keys = IntStream.range(0, KEYS).mapToObj(k -> prefix + "counter-" + k).toList();
    List<MutualExclusionChecker> counters = keys.stream().map(key -> new MutualExclusionChecker()).toList();
    List<String> warmUpKeys = IntStream.range(0, KEYS).mapToObj(k -> prefix + "warm-up-" + k).toList();
    List<Pin> pins;
    try (LockClient first = LockClients.connect(uri()); LockClient second = LockClients.connect(uri())) {
      List<LockClient> clients = List.of(first, second);
      runWorkload(clients, warmUpKeys, keys.stream().map(key -> new MutualExclusionChecker()).toList(),
          WARM_UP_THREADS);
      long started = System.nanoTime();
      try (PinRecording recording = PinRecording.start()) {
        runWorkload(clients, keys, counters, THREADS);
        pins = recording.stop();
      }
      log.info("{} virtual threads on {} keys of {} in {} ms, {} pins recorded", THREADS, KEYS, uri(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), pins.size());
    }

    for (int k = 0; k < KEYS; k++) {
      int turns = (THREADS - k + KEYS - 1) / KEYS;
      assertThat(counters.get(k).count()).as("the counter of %s, incremented by each of its %d turns", keys.get(k), turns)
          .isEqualTo(turns);
      assertThat(counters.get(k).mostInsideAtOnce()).as("holders of %s at once", keys.get(k)).isEqualTo(1);
    }
    List<Pin> inBaton = pins.stream().filter(pin -> pin.inBaton() && !pin.loadsClass()).toList();
    assertThat(inBaton).as("virtual threads pinned with Baton's code on the stack:\n%s",
        inBaton.stream().map(Pin::describe).collect(Collectors.joining("\n"))).isEmpty();
    if (!pins.isEmpty()) {
      log.warn("{} pins of virtual threads outside Baton's code or while the JVM loaded a class, by where they were"
          + " pinned: {}", pins.size(), pins.stream().collect(groupingBy(Pin::where, counting())));
    }
  }

  @Test
  void aLockHeldOnAnUnnamedVirtualThreadNamesItByItsId() throws Exception {
    assertHolderThread(VirtualThreads::startUnnamed, thread -> "virtual-" + thread.getId());
  }

  @Test
  void aLockHeldOnANamedVirtualThreadNamesItByItsName() throws Exception {
    assertHolderThread(task -> VirtualThreads.startNamed("invoice-worker-7", task), thread -> "invoice-worker-7");
  }

  /**
   * Runs {@code count} virtual threads, the i-th of which takes the lock of key i modulo {@link #KEYS} once and runs
   * that key's counter's critical section under it. The clients take turns by rounds of the keys, so that each key's
   * threads wait both in their client's local queue and at the store, behind the other client's.
   */
  private static void runWorkload(List<LockClient> clients, List<String> keys, List<MutualExclusionChecker> counters,
      int count) throws Exception {
    ExecutorService threads = VirtualThreads.perTaskExecutor();
    try {
      List<Future<?>> turns = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        LockClient client = clients.get(i / KEYS % clients.size());
        String key = keys.get(i % KEYS);
        MutualExclusionChecker counter = counters.get(i % KEYS);
        turns.add(threads.submit(() -> {
          try (Lease lease = client.lock(key).acquire()) {
            counter.criticalSection();
          }
          return null;
        }));
      }
      threads.shutdown();
      assertThat(threads.awaitTermination(WORKLOAD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .as("all %d virtual threads done within %s", count, WORKLOAD_TIMEOUT).isTrue();
      for (Future<?> turn : turns) {
        turn.get(); // rethrows what a thread threw
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /**
   * Holds a lock on a virtual thread that {@code start} starts, and asks {@code status} and {@code list} who holds
   * it: the thread {@code expected} names.
   */
  private void assertHolderThread(Function<Runnable, Thread> start, Function<Thread, String> expected)
      throws Exception {
    String key = prefix + "holder";
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<Exception> failed = new AtomicReference<>();
    try (LockClient client = LockClients.connect(uri())) {
      Thread holder = start.apply(() -> {
        try (Lease lease = client.lock(key).acquire()) {
          held.countDown();
          release.await();
        } catch (Exception e) {
          failed.set(e);
          held.countDown();
        }
      });
      try {
        assertThat(held.await(HOLD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).as("lock taken within %s", HOLD_TIMEOUT)
            .isTrue();
        assertThat(failed.get()).as("the holder's acquire").isNull();
        assertThat(VirtualThreads.isVirtual(holder)).isTrue();
        LockStatus status = client.status(key);
        assertThat(status.holder().map(LockHolder::thread)).as("the holder in %s", status)
            .contains(expected.apply(holder));
        assertThat(client.list(prefix, 10)).singleElement()
            .satisfies(listed -> assertThat(listed.holder().map(LockHolder::thread)).contains(expected.apply(holder)));
      } finally {
        release.countDown();
        holder.join(HOLD_TIMEOUT.toMillis());
      }
      assertThat(holder.isAlive()).as("the holder released and ended within %s", HOLD_TIMEOUT).isFalse();
    }
  }
}
