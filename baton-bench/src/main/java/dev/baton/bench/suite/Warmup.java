package dev.baton.bench.suite;

import java.time.Duration;
import java.util.List;

/**
 * A contender's warm-up: at least the settings' warm-up, then steps of a second for as long as the JIT of the JVM that
 * runs the contender's threads compiled for more than a hundredth of the last step, up to the settings' limit.
 *
 * <p>Why not a fixed time: the JIT compiles a method once it has run some thousands of times, so on a store that
 * answers a few hundred cycles a second (etcd, with an fsync per write) a client's code is still being compiled after
 * tens of seconds. Rounds timed before that measure the JIT at work on two cores shared with the store, and charge a
 * contender for the size of its code, which a service that runs for hours does not pay.
 */
final class Warmup {
  private static final Duration STEP = Duration.ofSeconds(1);
  /** The share of a step the JIT may compile in, at most, for the warm-up to end. */
  private static final double QUIET = 0.01;

  private Warmup() {}

  /** Warms {@code contender} up on {@code keys}; returns how long the warm-up was planned to last, all steps told. */
  static Duration run(Contender contender, Hold hold, List<String> keys, Settings settings) throws Exception {
    Load.Result last = Load.run(contender, hold, keys, settings.warmup());
    Duration spent = settings.warmup();
    while (stillCompiling(last) && spent.plus(STEP).compareTo(settings.warmupLimit()) <= 0) {
      last = Load.run(contender, hold, keys, STEP);
      spent = spent.plus(STEP);
    }
    return spent;
  }

  private static boolean stillCompiling(Load.Result run) {
    return run.compileMillis() > QUIET * run.elapsedNanos() / 1_000_000.0;
  }
}
