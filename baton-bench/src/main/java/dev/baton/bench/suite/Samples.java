package dev.baton.bench.suite;

import java.util.Arrays;

/** Durations in nanoseconds, every one kept, for exact percentiles. Not thread-safe: one per thread, then merged. */
final class Samples {
  private long[] values = new long[1024];
  private int size;

  void add(long nanos) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = nanos;
  }

  void addAll(Samples other) {
    for (int i = 0; i < other.size; i++) {
      add(other.values[i]);
    }
  }

  int size() {
    return size;
  }

  /** The {@code p}-th percentile (0 to 100) in microseconds, or NaN if there are no samples. */
  double percentileMicros(double p) {
    if (size == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(values, size);
    Arrays.sort(sorted);
    int index = (int) Math.ceil(p / 100 * size) - 1;
    return sorted[Math.max(0, Math.min(size - 1, index))] / 1_000.0;
  }
}
