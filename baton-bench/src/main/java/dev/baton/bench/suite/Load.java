package dev.baton.bench.suite;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Threads that take and give back a hold (a lock, a read or write lock, a permit) for a while, each on its own key
 * or all on one, and count: each thread makes its locker, all start together, and each stops at the first cycle it
 * ends past the deadline.
 */
final class Load {
  private Load() {}

  /**
   * What one run of the threads did.
   *
   * @param compileMillis how long the JIT of the JVM that ran the threads compiled during the run (all its compiler
   *     threads, whatever they compiled); -1 where that JVM does not tell
   */
  record Result(long cycles, long elapsedNanos, Samples waits, Samples cycleTimes, long compileMillis) {
    /** Cycles per second. */
    double rate() {
      return cycles * 1e9 / elapsedNanos;
    }
  }

  /** A contender whose threads run in another JVM: it runs a whole load there and returns what it did. */
  interface Elsewhere {
    /** What {@link Load#run} would return, measured by the other JVM's threads. */
    Result run(Hold hold, List<String> keys, Duration duration) throws Exception;
  }

  /**
   * Runs one thread per key of {@code keys} (a key may repeat), each taking {@code hold} of its key through
   * {@code contender}, for {@code duration}; in the contender's JVM if it is {@link Elsewhere}.
   */
  static Result run(Contender contender, Hold hold, List<String> keys, Duration duration) throws Exception {
    if (contender instanceof Elsewhere elsewhere) {
      return elsewhere.run(hold, keys, duration);
    }
    CountDownLatch ready = new CountDownLatch(keys.size());
    CountDownLatch go = new CountDownLatch(1);
    long[] deadline = new long[1];
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    List<Samples> waits = new ArrayList<>();
    List<Samples> cycleTimes = new ArrayList<>();
    long[] counts = new long[keys.size()];
    for (int i = 0; i < keys.size(); i++) {
      int index = i;
      Samples threadWaits = new Samples();
      Samples threadCycles = new Samples();
      waits.add(threadWaits);
      cycleTimes.add(threadCycles);
      Thread thread = new Thread(() -> {
        try {
          Locker locker = contender.locker(keys.get(index), hold);
          ready.countDown();
          go.await();
          long end = deadline[0];
          long now = System.nanoTime();
          while (now < end) {
            long start = now;
            locker.lock();
            long held = System.nanoTime();
            locker.unlock();
            now = System.nanoTime();
            threadWaits.add(held - start);
            threadCycles.add(now - start);
            counts[index]++;
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
          ready.countDown();
        }
      }, "bench-load-" + i);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    ready.await();
    long compiledBefore = JitTime.millis();
    long start = System.nanoTime();
    deadline[0] = start + duration.toNanos();
    go.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    long elapsed = System.nanoTime() - start;
    long compiled = JitTime.millis() - compiledBefore;
    if (failure.get() != null) {
      throw new IllegalStateException("A benchmark thread failed: " + failure.get(), failure.get());
    }
    Samples allWaits = new Samples();
    Samples allCycles = new Samples();
    long total = 0;
    for (int i = 0; i < keys.size(); i++) {
      allWaits.addAll(waits.get(i));
      allCycles.addAll(cycleTimes.get(i));
      total += counts[i];
    }
    return new Result(total, elapsed, allWaits, allCycles, compiledBefore < 0 ? -1 : compiled);
  }
}
