package dev.baton.engine;

import java.time.Duration;
import java.util.Optional;

/**
 * The one deadline of an acquisition: every wait and retry inside it shares it. It passes at its time, or earlier if
 * its {@link EarlyStop} comes.
 */
final class Deadline {
  private final EngineTime time;
  private final long atNanos;
  private final boolean unbounded;
  private final EarlyStop stop;

  private Deadline(EngineTime time, long atNanos, boolean unbounded, EarlyStop stop) {
    this.time = time;
    this.atNanos = atNanos;
    this.unbounded = unbounded;
    this.stop = stop;
  }

  /** A deadline {@code wait} from now, or none when {@code wait} is absent. */
  static Deadline after(EngineTime time, Optional<Duration> wait) {
    return after(time, wait, EarlyStop.NEVER);
  }

  /**
   * A deadline {@code wait} from now, or none when {@code wait} is absent, that passes at once when {@code stop}
   * comes.
   */
  static Deadline after(EngineTime time, Optional<Duration> wait, EarlyStop stop) {
    return wait.map(w -> new Deadline(time, time.now() + w.toNanos(), false, stop))
        .orElseGet(() -> new Deadline(time, 0, true, stop));
  }

  /** A deadline at the same time that passes at once when {@code stop} comes (a multi-lock's round, say). */
  Deadline stoppedBy(EarlyStop stop) {
    return new Deadline(time, atNanos, unbounded, stop);
  }

  /** What may end this deadline early: a wait under it registers its wake-up there. */
  EarlyStop stop() {
    return stop;
  }

  /** The time this deadline is counted in, which every wait under it waits by. */
  EngineTime time() {
    return time;
  }

  /** The time it passes at, in {@link #time()}; meaningless when {@link #isUnbounded unbounded}. */
  long atNanos() {
    return atNanos;
  }

  boolean isUnbounded() {
    return unbounded;
  }

  /** Nanoseconds left: {@code Long.MAX_VALUE} without a deadline, zero or less once it passed or was stopped. */
  long remainingNanos() {
    if (stop.isStopped()) {
      return 0;
    }
    return unbounded ? Long.MAX_VALUE : atNanos - time.now();
  }

  /**
   * When a wait of at most {@code pauseNanos} from now ends under this deadline: the pause's end, or the deadline's if
   * sooner; now if it was stopped. A time and not a length, so that a wait that begins a little
   * later (a timer scheduled, a thread parked) still ends when it should: with time a test moves, much may pass
   * between the two.
   */
  long wakeAt(long pauseNanos) {
    long now = time.now();
    if (stop.isStopped()) {
      return now;
    }
    long byPause = now + pauseNanos;
    return unbounded || byPause - atNanos < 0 ? byPause : atNanos;
  }

  boolean hasPassed() {
    return remainingNanos() <= 0;
  }
}
