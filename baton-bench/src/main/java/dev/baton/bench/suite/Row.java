package dev.baton.bench.suite;

import java.util.Arrays;

/**
 * What one implementation did in one timed scenario.
 *
 * @param rates cycles (acquisitions) per second, one per round
 * @param p50CycleMicros the median of a lock + unlock
 * @param p99CycleMicros the 99th percentile of a lock + unlock
 * @param p99WaitMicros the 99th percentile of the time in lock(), until held
 * @param workerShare across processes, the worker JVM's share of the acquisitions (0 to 1); NaN otherwise
 * @param failure why the implementation could not be measured, or null
 */
record Row(
    Implementation implementation,
    double[] rates,
    double p50CycleMicros,
    double p99CycleMicros,
    double p99WaitMicros,
    double workerShare,
    String failure) {

  /** The row of an implementation that failed in the scenario. */
  static Row failed(Implementation implementation, Exception failure) {
    return new Row(implementation, new double[0], Double.NaN, Double.NaN, Double.NaN, Double.NaN, failure.toString());
  }

  /** The median of the rounds' rates. */
  double rate() {
    double[] sorted = rates.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  double minRate() {
    return Arrays.stream(rates).min().orElse(Double.NaN);
  }

  double maxRate() {
    return Arrays.stream(rates).max().orElse(Double.NaN);
  }

  /** The smaller of the two JVMs' shares of the acquisitions, across processes. */
  double smallerShare() {
    return Math.min(workerShare, 1 - workerShare);
  }
}
