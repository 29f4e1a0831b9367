package dev.baton.engine;

import java.time.Duration;
import java.util.Optional;

/** The one deadline of an acquisition: every wait and retry inside it shares it. */
final class Deadline {
  private static final Deadline UNBOUNDED = new Deadline(0, true);

  private final long atNanos;
  private final boolean unbounded;

  private Deadline(long atNanos, boolean unbounded) {
    this.atNanos = atNanos;
    this.unbounded = unbounded;
  }

  /** A deadline {@code wait} from now, or none when {@code wait} is absent. */
  static Deadline after(Optional<Duration> wait) {
    return wait.map(w -> new Deadline(System.nanoTime() + w.toNanos(), false)).orElse(UNBOUNDED);
  }

  boolean isUnbounded() {
    return unbounded;
  }

  /** Nanoseconds left: {@code Long.MAX_VALUE} without a deadline, zero or less once it passed. */
  long remainingNanos() {
    return unbounded ? Long.MAX_VALUE : atNanos - System.nanoTime();
  }

  boolean hasPassed() {
    return remainingNanos() <= 0;
  }
}
