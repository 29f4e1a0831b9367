package dev.baton.redis;

import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One thread per client, each taking one lock over and over and, while it holds it, incrementing a
 * {@link FencedCounter} with a read-pause-write under the lease's fencing token; each records its holds.
 */
final class CounterWorkers {
  /** The pause between read and write, in which a stale holder's write would land. */
  private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  /** One holding: its token, whether after the failover, whether its write was taken, whether it ended in a release. */
  record Hold(long token, boolean afterFailover, boolean written, boolean stayedHeld) {}

  private final List<Hold> holds = new CopyOnWriteArrayList<>();
  private final List<Throwable> failures = new CopyOnWriteArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean failedOver;
  private volatile boolean stopping;

  private CounterWorkers() {}

  /** Starts a worker on {@code key} for each client. */
  static CounterWorkers start(String key, FencedCounter counter, List<LockClient> clients) {
    CounterWorkers workers = new CounterWorkers();
    for (int i = 0; i < clients.size(); i++) {
      LockClient client = clients.get(i);
      Thread thread = new Thread(() -> workers.work(client, key, counter), "counter-worker-" + i);
      thread.setDaemon(true);
      workers.threads.add(thread);
      thread.start();
    }
    return workers;
  }

  /** Marks the holds granted from now on as after the failover. */
  void failedOver() {
    failedOver = true;
  }

  /** The largest token granted so far. */
  long largestToken() {
    return holds.stream().mapToLong(Hold::token).max().orElse(Long.MIN_VALUE);
  }

  /** Whether a hold was granted after the failover yet. */
  boolean grantedAfterFailover() {
    return holds.stream().anyMatch(Hold::afterFailover);
  }

  /** The smallest token granted after the failover. */
  long smallestTokenAfterFailover() {
    return holds.stream().filter(Hold::afterFailover).mapToLong(Hold::token).min().orElseThrow();
  }

  /** The holds that ended in a release, never lost, whose write the counter refused: there should be none. */
  List<Hold> unwrittenHoldsThatStayedHeld() {
    return holds.stream().filter(hold -> hold.stayedHeld() && !hold.written()).toList();
  }

  /**
   * Interrupts the workers, waits until they have ended, and fails if one of them failed.
   *
   * @throws AssertionError naming the first failure
   */
  void stop() throws InterruptedException {
    stopping = true;
    for (Thread thread : threads) {
      thread.interrupt();
      thread.join(STOP_TIMEOUT.toMillis());
      if (thread.isAlive()) {
        throw new AssertionError(thread.getName() + " did not stop within " + STOP_TIMEOUT.toSeconds() + " s");
      }
    }
    if (!failures.isEmpty()) {
      throw new AssertionError("A worker failed", failures.get(0));
    }
  }

  private void work(LockClient client, String key, FencedCounter counter) {
    while (!stopping) {
      Lease lease;
      try {
        lease = client.lock(key).acquire();
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        failures.add(e);
        return;
      }
      boolean after = failedOver;
      long token = lease.fencingToken();
      OptionalLong read = counter.read(token);
      LockSupport.parkNanos(PAUSE_NANOS);
      boolean written = read.isPresent() && counter.increment(token, read.getAsLong());
      lease.close();
      holds.add(new Hold(token, after, written, lease.state() == LeaseState.RELEASED));
    }
  }
}
