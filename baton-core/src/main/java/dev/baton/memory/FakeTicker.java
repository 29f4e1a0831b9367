package dev.baton.memory;

import dev.baton.LockOptions;
import dev.baton.spi.Ticker;
import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Time that moves only when a test {@link #advance advances} it, for unit tests of code whose locks time out, expire
 * or are renewed: a client of {@link MemoryLockClient#connect(String, LockOptions, FakeTicker)} and its in-memory store
 * both run on it, so that a test of a hold timeout of an hour takes as long as its code does, and sees the lease end
 * at the instant it is due, not a moment before.
 *
 * <pre>{@code
 * FakeTicker time = new FakeTicker();
 * try (LockClient client = MemoryLockClient.connect("memory://jobs", LockOptions.defaults(), time)) {
 *   Lease lease = client.lock("nightly").acquire(LockOptions.defaults().withHoldTimeout(Duration.ofHours(1)));
 *   time.advance(Duration.ofHours(1)); // the hold timeout ends the lease now
 * }
 * }</pre>
 *
 * <p>Scheduled tasks (the engine's renewals, hold timeouts, retries) run on the advancing thread, each at its own time
 * in order. A thread waiting by this time (an acquire waiting for its deadline, say) looks at it again every
 * millisecond of real time, so that it sees an advance soon after it happens; a signal still wakes it at once. A test
 * kit or a store's own tests pass it to {@link dev.baton.spi.ClientFactory#newClient(dev.baton.spi.LockBackend,
 * LockOptions, Ticker)} as the engine's time.
 */
public final class FakeTicker implements Ticker {
  /** How often, in real time, a waiting thread looks whether its fake deadline has come. */
  private static final long LOOK_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private final ReentrantLock advancing = new ReentrantLock();
  private final PriorityQueue<Task> tasks = new PriorityQueue<>();
  private long now;
  private long scheduled;

  /** Time at zero, with no task scheduled. */
  public FakeTicker() {}

  @Override
  public synchronized long read() {
    return now;
  }

  /**
   * Waits for a signal for a millisecond of real time at most, and returns the fake time left of {@code nanos}: the
   * caller looks whether it was signalled and waits again while time is left. It returns after every wake-up, so that
   * a signal that comes as the millisecond ends (which {@link Condition#awaitNanos} may report as a timeout) is never
   * slept through.
   */
  @Override
  public long awaitNanos(Condition condition, long nanos) throws InterruptedException {
    long deadline = read() + nanos;
    if (nanos > 0) {
      condition.awaitNanos(LOOK_EVERY_NANOS);
    }
    return deadline - read();
  }

  @Override
  public synchronized void schedule(Runnable task, long delayNanos) {
    tasks.add(new Task(now + Math.max(0, delayNanos), scheduled++, task));
  }

  /**
   * Moves time forward by {@code step}, running every task that falls due on the way at its own time, those that the
   * tasks schedule for within the step included.
   *
   * @throws IllegalArgumentException if {@code step} is null or negative: time never goes back
   */
  public void advance(Duration step) {
    if (step == null || step.isNegative()) {
      throw new IllegalArgumentException("Fake time moves forward only: advance it by zero or more, not " + step + ".");
    }
    advancing.lock();
    try {
      long target = read() + step.toNanos();
      Task next;
      while ((next = nextDueBy(target)) != null) {
        next.task.run();
      }
    } finally {
      advancing.unlock();
    }
  }

  /** How many scheduled tasks have not run yet, cancelled ones included. */
  public synchronized int pendingTasks() {
    return tasks.size();
  }

  /** The next task due by {@code target}, with time moved to it; or null with time moved to {@code target}. */
  private synchronized Task nextDueBy(long target) {
    Task next = tasks.peek();
    if (next == null || next.dueAt - target > 0) {
      now = target;
      return null;
    }
    tasks.poll();
    now = Math.max(now, next.dueAt);
    return next;
  }

  @Override
  public String toString() {
    return "FakeTicker{" + Duration.ofNanos(read()) + '}';
  }

  private record Task(long dueAt, long order, Runnable task) implements Comparable<Task> {
    @Override
    public int compareTo(Task other) {
      int byTime = Long.compare(dueAt, other.dueAt);
      return byTime != 0 ? byTime : Long.compare(order, other.order);
    }
  }
}
