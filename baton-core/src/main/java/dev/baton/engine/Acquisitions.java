package dev.baton.engine;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** The acquisitions of a client that are talking to the store, so that closing can wake them and wait for their clean-up. */
final class Acquisitions {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition none = lock.newCondition();
  private final Set<Signal> active = new HashSet<>();

  Signal start() {
    Signal signal = new Signal();
    lock.lock();
    try {
      active.add(signal);
    } finally {
      lock.unlock();
    }
    return signal;
  }

  void finish(Signal signal) {
    lock.lock();
    try {
      active.remove(signal);
      if (active.isEmpty()) {
        none.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Wakes every acquisition (they then see the client closed) and waits up to {@code millis} for them to finish. */
  void wakeAllAndAwait(long millis) {
    lock.lock();
    try {
      active.forEach(Signal::signal);
      long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
      while (!active.isEmpty() && nanos > 0) {
        nanos = none.awaitNanos(nanos);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      lock.unlock();
    }
  }
}
