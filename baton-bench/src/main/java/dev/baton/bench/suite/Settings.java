package dev.baton.bench.suite;

import java.time.Duration;

/**
 * How long and how much the suite measures: a warm-up, then a number of timed rounds, per implementation and
 * scenario; and the counts of the memory scenario.
 *
 * @param warmup the untimed run before the rounds, for the JIT and the client's connections
 * @param rounds timed rounds; the page gives their median and their spread
 * @param round the length of one round
 * @param heldLeases leases held at once in the memory scenario
 * @param waiters threads waiting at once in the memory scenario
 */
record Settings(Duration warmup, int rounds, Duration round, int heldLeases, int waiters) {
  /** The full run of {@code bench/run}, fitted to 15 minutes on a 2-core machine. */
  static Settings full() {
    return new Settings(Duration.ofSeconds(4), 5, Duration.ofSeconds(2), 10_000, 1_000);
  }

  /** From system properties {@code bench.warmupMillis}, {@code bench.rounds}, ..., the full run's where unset. */
  static Settings fromSystemProperties() {
    Settings full = full();
    return new Settings(
        Duration.ofMillis(Long.getLong("bench.warmupMillis", full.warmup.toMillis())),
        Integer.getInteger("bench.rounds", full.rounds),
        Duration.ofMillis(Long.getLong("bench.roundMillis", full.round.toMillis())),
        Integer.getInteger("bench.heldLeases", full.heldLeases),
        Integer.getInteger("bench.waiters", full.waiters));
  }
}
