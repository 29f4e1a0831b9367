package dev.baton.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * A way to end an acquire's waits before its deadline: once {@link #stop stopped}, a {@link Deadline} under it has
 * passed, and every wait registered with {@link #onStop} is woken to see so. A multi-lock's acquisition stops the
 * wait for its next key when a key it took is lost ({@link MultiAcquisition}). One per acquire that may be stopped;
 * {@link #NEVER} for the others.
 */
final class EarlyStop {
  /** A stop that never comes: registrations with it are dropped. */
  static final EarlyStop NEVER = new EarlyStop();

  private final List<Runnable> wakeUps = new ArrayList<>();
  private boolean stopped;

  /** Ends the waits under this stop, now and later; runs each registered wake-up once, on the calling thread. */
  void stop() {
    if (this == NEVER) {
      throw new IllegalStateException("EarlyStop.NEVER is never stopped");
    }
    List<Runnable> toWake;
    synchronized (this) {
      if (stopped) {
        return;
      }
      stopped = true;
      toWake = List.copyOf(wakeUps);
      wakeUps.clear();
    }
    toWake.forEach(Runnable::run);
  }

  synchronized boolean isStopped() {
    return stopped;
  }

  /**
   * Runs {@code wakeUp} when this stop comes, or now if it came: a wake-up only hands on (wakes a waiting thread,
   * cancels an asynchronous step). Returns what takes the wake-up out again, for a wait that ended otherwise.
   */
  Runnable onStop(Runnable wakeUp) {
    if (this == NEVER) {
      return () -> { };
    }
    synchronized (this) {
      if (!stopped) {
        wakeUps.add(wakeUp);
        return () -> forget(wakeUp);
      }
    }
    wakeUp.run();
    return () -> { };
  }

  private synchronized void forget(Runnable wakeUp) {
    wakeUps.remove(wakeUp);
  }
}
