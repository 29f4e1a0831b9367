package dev.baton.engine;

import dev.baton.spi.WakeUp;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** The wake-up of one waiting acquisition: a flag that a backend sets and the waiting thread awaits. */
final class Signal implements WakeUp {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition signalled = lock.newCondition();
  private boolean set;

  /** Forgets earlier signals; called before each try so that a signal during the try is kept. */
  void reset() {
    lock.lock();
    try {
      set = false;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void signal() {
    lock.lock();
    try {
      set = true;
      signalled.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Returns when signalled or after {@code nanos} of {@code time}, whichever comes first. */
  void await(EngineTime time, long nanos) throws InterruptedException {
    lock.lock();
    try {
      long left = nanos;
      while (!set && left > 0) {
        left = time.awaitNanos(signalled, left);
      }
    } finally {
      lock.unlock();
    }
  }

}
