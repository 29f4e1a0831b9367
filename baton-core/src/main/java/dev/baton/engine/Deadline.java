package dev.baton.engine;

import java.time.Duration;
import java.util.Optional;

/** The one deadline of an acquisition: every wait and retry inside it shares it. */
final class Deadline {
  private final EngineTime time;
  private final long atNanos;
  private final boolean unbounded;

  private Deadline(EngineTime time, long atNanos, boolean unbounded) {
    this.time = time;
    this.atNanos = atNanos;
    this.unbounded = unbounded;
  }

  /** A deadline {@code wait} from now, or none when {@code wait} is absent. */
  static Deadline after(EngineTime time, Optional<Duration> wait) {
    return wait.map(w -> new Deadline(time, time.now() + w.toNanos(), false)).orElseGet(() -> new Deadline(time, 0, true));
  }

  /** The time this deadline is counted in, which every wait under it waits by. */
  EngineTime time() {
    return time;
  }

  boolean isUnbounded() {
    return unbounded;
  }

  /** Nanoseconds left: {@code Long.MAX_VALUE} without a deadline, zero or less once it passed. */
  long remainingNanos() {
    return unbounded ? Long.MAX_VALUE : atNanos - time.now();
  }

  boolean hasPassed() {
    return remainingNanos() <= 0;
  }
}
