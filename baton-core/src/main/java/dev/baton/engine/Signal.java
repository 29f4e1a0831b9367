package dev.baton.engine;

import dev.baton.spi.WakeUp;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The wake-up of one waiting acquisition: a flag that a backend sets and the waiting thread awaits, or that runs the
 * resumption a threadless acquisition parked on it.
 */
final class Signal implements WakeUp {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition signalled = lock.newCondition();
  private boolean set;
  private Runnable parked;

  /** Forgets earlier signals and any parked resumption; called before each try so that a signal during the try is kept. */
  void reset() {
    lock.lock();
    try {
      set = false;
      parked = null;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void signal() {
    Runnable resume;
    lock.lock();
    try {
      set = true;
      signalled.signalAll();
      resume = parked;
      parked = null;
    } finally {
      lock.unlock();
    }
    if (resume != null) {
      resume.run();
    }
  }

  /**
   * Returns when signalled or at {@code atNanos} of {@code time}, whichever comes first. What is left is read again
   * from the time after each wake-up, so a wait that began late ends on time.
   */
  void awaitUntil(EngineTime time, long atNanos) throws InterruptedException {
    lock.lock();
    try {
      long left;
      while (!set && (left = atNanos - time.now()) > 0) {
        time.awaitNanos(signalled, left);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Runs {@code resume}, on the signalling thread, at the next signal; false, and nothing is kept, if signalled since
   * the last {@link #reset}: then the caller resumes at once. {@code resume} must only hand on, as backends signal from
   * their I/O threads.
   */
  boolean park(Runnable resume) {
    lock.lock();
    try {
      if (set) {
        return false;
      }
      parked = resume;
      return true;
    } finally {
      lock.unlock();
    }
  }
}
