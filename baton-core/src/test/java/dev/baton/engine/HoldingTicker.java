package dev.baton.engine;

import dev.baton.memory.FakeTicker;
import dev.baton.spi.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;

/**
 * An engine's time over a {@link FakeTicker} whose scheduled tasks (the watchdog's ticks, timers) the test may hold
 * back while it moves time, and run later: so that something the test does at a moment comes before the engine's
 * task due at that moment, as it may on the system's time, where the two run on different threads.
 */
final class HoldingTicker implements Ticker {
  private final FakeTicker time;
  private final List<Runnable> held = new ArrayList<>();
  private boolean holding;
  private long holdingFrom;

  HoldingTicker(FakeTicker time) {
    this.time = time;
  }

  @Override
  public long read() {
    return time.read();
  }

  @Override
  public long awaitNanos(Condition condition, long nanos) throws InterruptedException {
    return time.awaitNanos(condition, nanos);
  }

  @Override
  public void schedule(Runnable task, long delayNanos) {
    time.schedule(() -> runOrHold(task), delayNanos);
  }

  /** From now on, a task that falls due waits until {@link #runHeldTasks}. */
  void holdTasks() {
    holdTasksFrom(read());
  }

  /** A task that falls due at {@code atNanos} of fake time or later waits until {@link #runHeldTasks}. */
  synchronized void holdTasksFrom(long atNanos) {
    holding = true;
    holdingFrom = atNanos;
  }

  /** Runs the tasks held back, in the order they fell due, on this thread; those due later run when due. */
  void runHeldTasks() {
    List<Runnable> due;
    synchronized (this) {
      holding = false;
      due = List.copyOf(held);
      held.clear();
    }
    due.forEach(Runnable::run);
  }

  /** How many tasks fell due and are held back. */
  synchronized int heldTasks() {
    return held.size();
  }

  private void runOrHold(Runnable task) {
    synchronized (this) {
      if (holding && time.read() - holdingFrom >= 0) {
        held.add(task);
        return;
      }
    }
    task.run();
  }
}
