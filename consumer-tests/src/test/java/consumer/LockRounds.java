package consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.DistributedLock;
import dev.baton.LockClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/** What an application does with locks, a couple of thousand times: every call must succeed. */
final class LockRounds {
  static final int DISTINCT_KEYS = 1_500;
  static final int THREADS = 4;
  static final int ROUNDS_PER_THREAD = 150;
  static final int HOT_KEYS = 3;
  private static final long WAIT_SECONDS = 30;

  private LockRounds() {}

  /** tryLock and unlock on keys that nobody else uses: each is granted at once. */
  static void distinctKeys(LockClient client, String prefix) {
    for (int i = 0; i < DISTINCT_KEYS; i++) {
      DistributedLock lock = client.lock(prefix + "/distinct/" + i);
      assertThat(lock.tryLock()).as("tryLock of the free key %s/distinct/%d", prefix, i).isTrue();
      lock.unlock();
    }
  }

  /**
   * Threads of two clients take turns on a few keys, with a bounded wait: at most one holds a key at a time, and every
   * round gets its turn.
   */
  static void contended(LockClient first, LockClient second, String prefix) throws Exception {
    AtomicIntegerArray holders = new AtomicIntegerArray(HOT_KEYS);
    AtomicInteger turns = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> threads = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        LockClient client = thread % 2 == 0 ? first : second;
        threads.add(pool.submit(() -> {
          for (int round = 0; round < ROUNDS_PER_THREAD; round++) {
            int key = (thread + round) % HOT_KEYS;
            DistributedLock lock = client.lock(prefix + "/hot/" + key);
            assertThat(lock.tryLock(WAIT_SECONDS, TimeUnit.SECONDS))
                .as("tryLock of %s/hot/%d within %d s", prefix, key, WAIT_SECONDS).isTrue();
            try {
              assertThat(holders.incrementAndGet(key)).as("holders of %s/hot/%d", prefix, key).isEqualTo(1);
              turns.incrementAndGet();
              holders.decrementAndGet(key);
            } finally {
              lock.unlock();
            }
          }
          return null;
        }));
      }
      for (Future<?> thread : threads) {
        thread.get(WAIT_SECONDS * ROUNDS_PER_THREAD, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(turns.get()).isEqualTo(THREADS * ROUNDS_PER_THREAD);
  }
}
