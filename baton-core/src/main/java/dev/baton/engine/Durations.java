package dev.baton.engine;

import dev.baton.LockOptions;
import java.time.Duration;

/**
 * Checks the durations callers pass, and writes durations as people read them in messages: {@code 300 ms},
 * {@code 5 s}, {@code 2 min 30 s}.
 */
final class Durations {
  private Durations() {}

  /**
   * Returns {@code value} if it is between {@code min} and {@link LockOptions#MAX_DURATION}.
   *
   * @param name what the value is, for the message
   * @param hint what to do instead, for the message
   * @throws IllegalArgumentException naming the value, if it is null or out of range
   */
  static Duration checkRange(String name, Duration value, Duration min, String hint) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must not be null. " + hint);
    }
    if (value.compareTo(min) < 0) {
      throw new IllegalArgumentException(name + " must be at least " + format(min) + " but was " + value + ". " + hint);
    }
    if (value.compareTo(LockOptions.MAX_DURATION) > 0) {
      throw new IllegalArgumentException(name + " must be at most 365 days but was " + value + ". " + hint);
    }
    return value;
  }

  static String format(Duration d) {
    long millis = d.toMillis();
    if (millis < 1_000) {
      return millis + " ms";
    }
    if (millis < 60_000) {
      return millis % 1_000 == 0 ? millis / 1_000 + " s" : String.format("%.1f s", millis / 1000.0);
    }
    long seconds = d.toSeconds();
    return seconds / 60 + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
  }
}
