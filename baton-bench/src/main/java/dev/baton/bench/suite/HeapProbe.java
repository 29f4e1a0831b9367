package dev.baton.bench.suite;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The heap an implementation needs per held lease and per waiting thread, as the used heap after full collections
 * ({@code System.gc()}) before and after; run in a JVM of its own, where no server shares the heap.
 *
 * <p>Eight threads take {@code leases} locks on as many keys, a share each, and keep them. Then {@code waiters}
 * threads park on a latch, as the baseline of a thread that waits on nothing; they end, and as many threads each
 * wait for one of the held keys through a second client, as if the locks were held by another process (a waiter
 * behind a holder of its own client may wait in the client alone). A waiter's cost is its heap over the baseline's.
 * The keys exist before the first measurement. At the end the holders let go, the waiters take their lock and let
 * go, and the clients close.
 */
final class HeapProbe {
  /** How long to let the threads' background work land once they all wait, per thread. */
  private static final Duration SETTLE_PER_THREAD = Duration.ofMillis(1);
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  /** Threads that take the held locks, a share each, so that taking 10 000 does not take minutes. */
  private static final int HOLDERS = 8;
  private static final int GC_PASSES = 2;

  private HeapProbe() {}

  /**
   * Bytes per held lease, bytes per waiting thread over a parked one, bytes per parked thread, and what went wrong
   * (NaN where nothing could be measured; an empty note when all went well).
   */
  record Heap(double perLease, double perWaiter, double perParkedThread, String note) {
    /** The words of the worker's line, as {@link #toString()} wrote them: HEAP, three numbers, and the note. */
    static Heap parse(String[] words) {
      return new Heap(Double.parseDouble(words[1]), Double.parseDouble(words[2]), Double.parseDouble(words[3]),
          String.join(" ", Arrays.asList(words).subList(4, words.length)));
    }

    @Override
    public String toString() {
      return "HEAP " + perLease + " " + perWaiter + " " + perParkedThread + " " + note;
    }
  }

  static Heap measure(Implementation implementation, Endpoints endpoints, int leases, int waiters) throws Exception {
    try (Contender contender = implementation.open(endpoints); Contender other = implementation.open(endpoints)) {
      warmUp(contender);
      warmUp(other);
      List<String> keys = new ArrayList<>(leases);
      for (int i = 0; i < leases; i++) {
        keys.add("mem/" + i);
      }
      List<Exception> failures = new CopyOnWriteArrayList<>();
      long before = usedAfterGc();
      CountDownLatch allHeld = new CountDownLatch(HOLDERS);
      CountDownLatch letGo = new CountDownLatch(1);
      List<Thread> holders = startThreads(HOLDERS, holder -> {
        List<Locker> held = new ArrayList<>();
        try {
          for (int i = holder; i < leases; i += HOLDERS) {
            Locker locker = contender.locker(keys.get(i), Hold.LOCK);
            locker.lock();
            held.add(locker);
          }
        } finally {
          allHeld.countDown();
        }
        letGo.await();
        for (Locker locker : held) {
          locker.unlock();
        }
      }, failures);
      if (!allHeld.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS) || !failures.isEmpty()) {
        throw new IllegalStateException("The holders did not take " + leases + " locks within "
            + TIMEOUT.toSeconds() + " s" + (failures.isEmpty() ? "." : ": " + failures.get(0)));
      }
      long withLeases = usedAfterGc();

      CountDownLatch release = new CountDownLatch(1);
      List<Thread> parked = startThreads(waiters, i -> release.await(), failures);
      long withParked = usedWhenAllWait(parked, failures).orElseThrow();
      release.countDown();
      joinAll(parked);

      long beforeWaiters = usedAfterGc();
      List<Thread> waiting = startThreads(waiters, i -> {
        Locker locker = other.locker(keys.get(i % leases), Hold.LOCK);
        locker.lock();
        locker.unlock();
      }, failures);
      OptionalLong withWaiters = usedWhenAllWait(waiting, failures);
      long endedEarly = waiting.stream().filter(thread -> thread.getState() == Thread.State.TERMINATED).count();
      letGo.countDown();
      joinAll(holders);
      joinAll(waiting);
      if (withWaiters.isPresent() && !failures.isEmpty()) {
        IllegalStateException failed = new IllegalStateException(failures.size() + " of the threads of "
            + implementation + " failed; the first: " + failures.get(0), failures.get(0));
        failures.stream().skip(1).limit(3).forEach(failed::addSuppressed);
        throw failed;
      }
      double perParked = (double) (withParked - withLeases) / waiters;
      double perLease = (double) (withLeases - before) / leases;
      if (withWaiters.isEmpty()) {
        return new Heap(perLease, Double.NaN, perParked, endedEarly + " of the " + waiters + " waiters were granted "
            + "a lock that its holder had not let go: the holder's lock was lost while held");
      }
      double perWaiter = (double) (withWaiters.getAsLong() - beforeWaiters) / waiters - perParked;
      return new Heap(perLease, perWaiter, perParked, "");
    }
  }

  private static void warmUp(Contender contender) throws Exception {
    Locker locker = contender.locker("mem/warm-up", Hold.LOCK);
    locker.lock();
    locker.unlock();
  }

  /** A task of one numbered thread. */
  private interface Task {
    void run(int index) throws Exception;
  }

  private static List<Thread> startThreads(int count, Task task, List<Exception> failures) {
    List<Thread> threads = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int index = i;
      Thread thread = new Thread(() -> {
        try {
          task.run(index);
        } catch (Exception e) {
          failures.add(e);
        }
      }, "bench-waiter-" + i);
      thread.setDaemon(true);
      threads.add(thread);
    }
    threads.forEach(Thread::start);
    return threads;
  }

  /**
   * The used heap once every thread has been parked for a while (the state says it waits, not what for); empty if a
   * thread ended instead, without failing.
   */
  private static OptionalLong usedWhenAllWait(List<Thread> threads, List<Exception> failures) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!threads.stream().allMatch(HeapProbe::isParked)) {
      if (!failures.isEmpty()) {
        throw new IllegalStateException("A thread failed while the holders held their locks: " + failures.get(0),
            failures.get(0));
      }
      if (threads.stream().anyMatch(thread -> thread.getState() == Thread.State.TERMINATED)) {
        return OptionalLong.empty();
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("The threads did not all wait within " + TIMEOUT.toSeconds() + " s.");
      }
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
    LockSupport.parkNanos(SETTLE_PER_THREAD.toNanos() * threads.size());
    return OptionalLong.of(usedAfterGc());
  }

  private static boolean isParked(Thread thread) {
    Thread.State state = thread.getState();
    return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
  }

  private static void joinAll(List<Thread> threads) throws InterruptedException {
    for (Thread thread : threads) {
      thread.join(TIMEOUT.toMillis());
      if (thread.isAlive()) {
        throw new IllegalStateException(thread.getName() + " did not finish within "
            + TIMEOUT.toSeconds() + " s of the release.");
      }
    }
  }

  private static long usedAfterGc() {
    Runtime runtime = Runtime.getRuntime();
    for (int i = 0; i < GC_PASSES; i++) {
      System.gc();
    }
    return runtime.totalMemory() - runtime.freeMemory();
  }
}
