package dev.baton.engine;

import java.time.Duration;

/** Writes durations as people read them in messages: {@code 300 ms}, {@code 5 s}, {@code 2 min 30 s}. */
final class Durations {
  private Durations() {}

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
