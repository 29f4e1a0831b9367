package dev.baton.bench.suite;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * How long and how much the suite measures: a warm-up, then a number of timed rounds, per implementation and
 * scenario; the counts of the memory scenario; and the stores whose implementations run.
 *
 * @param warmup the untimed run before the rounds, for the JIT and the client's connections: at least this long
 * @param warmupLimit the longest a warm-up goes on while the JIT is still busy ({@link Warmup})
 * @param rounds timed rounds; the page gives their median and their spread
 * @param round the length of one round
 * @param heldLeases leases held at once in the memory scenario
 * @param waiters threads waiting at once in the memory scenario
 * @param stores the stores whose implementations run: all of them, but for a run that tries some
 * @param scenarios the timed scenarios that run: all of them, but for a run that tries some, which leaves out the
 *     memory scenario and the raw limits too
 */
record Settings(Duration warmup, Duration warmupLimit, int rounds, Duration round, int heldLeases, int waiters,
    Set<Store> stores, Set<Scenario> scenarios) {
  /** Settings for every store and scenario, with warm-ups of {@code warmup} exactly. */
  Settings(Duration warmup, int rounds, Duration round, int heldLeases, int waiters) {
    this(warmup, warmup, rounds, round, heldLeases, waiters, EnumSet.allOf(Store.class), EnumSet.allOf(Scenario.class));
  }

  /** Whether {@code implementation} runs. */
  boolean runs(Implementation implementation) {
    return stores.contains(implementation.store());
  }

  /** Whether {@code scenario} runs. */
  boolean runs(Scenario scenario) {
    return scenarios.contains(scenario);
  }

  /** Whether every timed scenario runs, and so the memory scenario and the raw limits too. */
  boolean runsEveryScenario() {
    return scenarios.size() == Scenario.values().length;
  }

  /** The full run of {@code bench/run}, fitted to 15 minutes on a 2-core machine. */
  static Settings full() {
    return new Settings(Duration.ofSeconds(4), Duration.ofSeconds(30), 5, Duration.ofSeconds(2), 10_000, 1_000,
        EnumSet.allOf(Store.class), EnumSet.allOf(Scenario.class));
  }

  /**
   * From system properties {@code bench.warmupMillis}, {@code bench.warmupLimitMillis}, {@code bench.rounds}, ...,
   * {@code bench.stores} (such as {@code postgres}, {@code redis,etcd} or {@code redis-cluster}) and
   * {@code bench.scenarios} (scenario ids such as {@code multi-key} or {@code hot-key,spread}), the full run's where
   * unset.
   */
  static Settings fromSystemProperties() {
    Settings full = full();
    return new Settings(
        Duration.ofMillis(Long.getLong("bench.warmupMillis", full.warmup.toMillis())),
        Duration.ofMillis(Long.getLong("bench.warmupLimitMillis", full.warmupLimit.toMillis())),
        Integer.getInteger("bench.rounds", full.rounds),
        Duration.ofMillis(Long.getLong("bench.roundMillis", full.round.toMillis())),
        Integer.getInteger("bench.heldLeases", full.heldLeases),
        Integer.getInteger("bench.waiters", full.waiters),
        stores(System.getProperty("bench.stores")),
        scenarios(System.getProperty("bench.scenarios")));
  }

  /** The scenarios of {@code bench.scenarios}, by id: all of them if {@code ids} is null or blank. */
  static Set<Scenario> scenarios(String ids) {
    if (ids == null || ids.isBlank()) {
      return EnumSet.allOf(Scenario.class);
    }
    Set<Scenario> scenarios = EnumSet.noneOf(Scenario.class);
    for (String id : ids.split(",")) {
      String wanted = id.strip().toLowerCase(Locale.ROOT);
      scenarios.add(Arrays.stream(Scenario.values()).filter(scenario -> scenario.id().equals(wanted)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("bench.scenarios: unknown scenario '" + id.strip()
              + "'; use some of " + Arrays.stream(Scenario.values()).map(Scenario::id).toList()
              + ", separated by commas.")));
    }
    return scenarios;
  }

  /** The stores of {@code bench.stores}: all of them if {@code names} is null or blank. */
  static Set<Store> stores(String names) {
    if (names == null || names.isBlank()) {
      return EnumSet.allOf(Store.class);
    }
    Set<Store> stores = EnumSet.noneOf(Store.class);
    for (String name : names.split(",")) {
      String id = name.strip().toLowerCase(Locale.ROOT);
      stores.add(Arrays.stream(Store.values()).filter(store -> store.id().equals(id)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("bench.stores: unknown store '" + name.strip()
              + "'; use some of " + Arrays.stream(Store.values()).map(Store::id).toList()
              + ", separated by commas.")));
    }
    return stores;
  }
}
