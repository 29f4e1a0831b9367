package dev.baton.bench.suite;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything one run measured, and where: the timed scenarios' rows, the heap of each implementation that
 * {@link Scenario#heapImplementations()} names (in that order), each store's raw limit measured alone before and after
 * the scenarios ({@link Runner#rawLimits()}), what a remote waiter saw of each lingering implementation of the linger
 * scenario ({@link Runner#remoteWaiters}; empty if that scenario did not run), and the run's environment.
 */
record Results(Map<Scenario, List<Row>> rows, List<HeapProbe.Heap> heaps, RawDrift drift,
    List<RemoteWaiter.Result> remoteWaiters, Environment environment) {

  /** The raw limit of each store, uncontended, before the first scenario and after the last. */
  record RawDrift(Map<Implementation, Row> before, Map<Implementation, Row> after) {}

  /** The machine, the versions and the settings of a run. */
  record Environment(
      String date, String command, String machine, String jdk, Settings settings, List<String> servers,
      List<String> libraries, long seconds) {}

  Optional<Row> row(Scenario scenario, Implementation implementation) {
    return rows.getOrDefault(scenario, List.of()).stream()
        .filter(row -> row.implementation() == implementation)
        .findFirst();
  }

  Optional<HeapProbe.Heap> heap(Implementation implementation) {
    int index = Scenario.heapImplementations().indexOf(implementation);
    return index < 0 || index >= heaps.size() ? Optional.empty() : Optional.of(heaps.get(index));
  }

  /** {@code implementation}'s median rate over {@code other}'s in {@code scenario}; NaN if either is missing. */
  double ratio(Scenario scenario, Implementation implementation, Implementation other) {
    return ratio(scenario, implementation, scenario, other);
  }

  /**
   * {@code implementation}'s median rate in {@code scenario} over {@code other}'s in {@code otherScenario}; NaN if
   * either is missing.
   */
  double ratio(Scenario scenario, Implementation implementation, Scenario otherScenario, Implementation other) {
    return row(scenario, implementation)
        .flatMap(row -> row(otherScenario, other).map(base -> row.rate() / base.rate()))
        .orElse(Double.NaN);
  }

  /** Baton's lease implementation on {@code store}. */
  static Implementation baton(Store store) {
    return switch (store) {
      case REDIS -> Implementation.BATON_REDIS;
      case ZOOKEEPER -> Implementation.BATON_ZOOKEEPER;
      case ETCD -> Implementation.BATON_ETCD;
      case POSTGRES -> Implementation.BATON_POSTGRES;
      case MYSQL -> Implementation.BATON_MYSQL;
      case REDIS_CLUSTER -> Implementation.BATON_REDIS_CLUSTER;
    };
  }

  /** The peer Baton is compared with on {@code store} (on PostgreSQL and MariaDB the one that can wait). */
  static Implementation peer(Store store) {
    return switch (store) {
      case REDIS -> Implementation.REDISSON;
      case ZOOKEEPER -> Implementation.CURATOR;
      case ETCD -> Implementation.JETCD_LOCK;
      case POSTGRES -> Implementation.JDBC_LOCK_REGISTRY;
      case MYSQL -> Implementation.JDBC_LOCK_REGISTRY_MYSQL;
      case REDIS_CLUSTER -> Implementation.REDISSON_CLUSTER;
    };
  }

  /** The raw limit of {@code store}. */
  static Implementation raw(Store store) {
    return switch (store) {
      case REDIS -> Implementation.RAW_REDIS;
      case ZOOKEEPER -> Implementation.RAW_ZOOKEEPER;
      case ETCD -> Implementation.RAW_ETCD;
      case POSTGRES -> Implementation.RAW_POSTGRES;
      case MYSQL -> Implementation.RAW_MYSQL;
      case REDIS_CLUSTER -> Implementation.RAW_REDIS_CLUSTER;
    };
  }
}
