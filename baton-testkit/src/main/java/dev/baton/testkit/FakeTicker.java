package dev.baton.testkit;

import dev.baton.spi.Ticker;
import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Time that moves only when a test {@link #advance advances} it: what a client's engine (through
 * {@link dev.baton.spi.ClientFactory#newClient(dev.baton.spi.LockBackend, dev.baton.LockOptions, Ticker)}) and an
 * {@link dev.baton.testkit.memory.InMemoryStore} can run on, so that a test of hold timeouts, renewals or losses
 * takes as long as its code does and not as long as the times it names.
 *
 * <p>Scheduled tasks run on the advancing thread, each at its own time in order. A thread waiting by this time (an
 * acquire waiting for its deadline, say) looks at it again every millisecond of real time, so that it sees an advance
 * soon after it happens; a signal still wakes it at once.
 */
public final class FakeTicker implements Ticker {
  /** How often, in real time, a waiting thread looks whether its fake deadline has come. */
  private static final long LOOK_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private final ReentrantLock advancing = new ReentrantLock();
  private final PriorityQueue<Task> tasks = new PriorityQueue<>();
  private long now;
  private long scheduled;

  @Override
  public synchronized long read() {
    return now;
  }

  @Override
  public long awaitNanos(Condition condition, long nanos) throws InterruptedException {
    long deadline = read() + nanos;
    while (deadline - read() > 0) {
      if (condition.awaitNanos(LOOK_EVERY_NANOS) > 0) {
        break; // signalled, or a spurious wake-up: the caller looks and waits again if it must
      }
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
   */
  public void advance(Duration step) {
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
