package dev.baton.bench.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The targets of the benchmark issue, of the PostgreSQL issue (and of the MySQL/MariaDB issue, the same), of the
 * Redis Sentinel/Cluster issue and of the multi-lock issue, checked against one run's numbers.
 */
final class Targets {
  private static final double RAW_SHARE = 0.9;
  private static final double HOT_KEY_FACTOR = 20;
  private static final double ACROSS_FACTOR = 2;
  private static final double FAIR_SHARE = 1.0 / 3;
  /** Baton's read lock and semaphore over the peer's, on one key in one process or across processes. */
  private static final double SHARED_FACTOR = 3;
  /** Baton's uncontended write lock over its uncontended mutex, on the same store. */
  private static final double WRITE_SHARE = 0.9;
  private static final double MAX_BYTES_PER_LEASE = 2048;
  /** The stores of the benchmark issue, whose targets are the ones above. */
  private static final List<Store> BENCHMARK_STORES = List.of(Store.REDIS, Store.ZOOKEEPER, Store.ETCD);
  /**
   * The PostgreSQL issue's: Baton over Spring Integration's JdbcLockRegistry, uncontended and on a hot key; the
   * MySQL/MariaDB issue asks the same of MariaDB.
   */
  private static final double JDBC_UNCONTENDED_FACTOR = 2;
  private static final double JDBC_HOT_KEY_FACTOR = 20;
  /**
   * The Redis Sentinel/Cluster issue's: Baton at least at par with Redisson in cluster mode, 8 threads on 8 keys over
   * the three masters, i.e. that routing by slot (Baton's hash tags, Lettuce's cluster client) costs Baton no more than
   * it costs Redisson. Not more: Baton's lead there (2x to 4x in the first runs, against 2x in the spread on one
   * server) owes much to the {@code WAIT} for a replica that Redisson sends after each script on a cluster, which a
   * target should not lean on.
   */
  private static final double CLUSTER_FACTOR = 1;

  /** The multi-lock issue's: Baton's multi-lock over Redisson's {@code RedissonMultiLock}, 3 random keys of 10. */
  private static final double MULTI_FACTOR = 3;

  /** The issue "etcd: ahead of jetcd's own lock", on both of jetcd's lines. */
  private static final double JETCD_FACTOR = 1.5;

  private Targets() {}

  /** One target: what it asks, what was measured, and whether that meets it (false when it was not measured). */
  record Target(String asked, String measured, boolean met) {}

  static List<Target> check(Results results) {
    List<Target> targets = new ArrayList<>();
    for (Store store : BENCHMARK_STORES) {
      atLeast(targets, results, Scenario.UNCONTENDED, store, Results.raw(store), RAW_SHARE, "raw limit");
    }
    atLeast(targets, results, Scenario.UNCONTENDED, Store.REDIS, Implementation.REDISSON, 1.5, "Redisson");
    atLeast(targets, results, Scenario.UNCONTENDED, Store.ZOOKEEPER, Implementation.CURATOR, 1.3, "Curator");
    atLeast(targets, results, Scenario.UNCONTENDED, Store.ETCD, Implementation.JETCD_LOCK, JETCD_FACTOR,
        "jetcd Lock 0.7.x");
    atLeast(targets, results, Scenario.UNCONTENDED, Store.ETCD, Implementation.JETCD_LOCK_CURRENT, JETCD_FACTOR,
        "jetcd Lock 0.8.x");
    for (Store store : BENCHMARK_STORES) {
      atLeast(targets, results, Scenario.SPREAD, store, Results.raw(store), RAW_SHARE, "raw limit, 8 threads");
    }
    atLeast(targets, results, Scenario.HOT_KEY, Store.REDIS, Implementation.REDISSON, HOT_KEY_FACTOR, "Redisson");
    atLeast(targets, results, Scenario.HOT_KEY, Store.ZOOKEEPER, Implementation.CURATOR, HOT_KEY_FACTOR, "Curator");
    atLeast(targets, results, Scenario.ACROSS_PROCESSES, Store.REDIS, Implementation.REDISSON, ACROSS_FACTOR,
        "Redisson");
    for (Store store : BENCHMARK_STORES) {
      double share = results.row(Scenario.ACROSS_PROCESSES, Results.baton(store))
          .map(Row::smallerShare).orElse(Double.NaN);
      targets.add(new Target(String.format(Locale.ROOT, "%s: across processes, no JVM under a third of the "
          + "acquisitions", store.label()), percent(share), share >= FAIR_SHARE));
    }
    atLeast(targets, results, Scenario.UNCONTENDED, Store.POSTGRES, Implementation.JDBC_LOCK_REGISTRY,
        JDBC_UNCONTENDED_FACTOR, "JdbcLockRegistry");
    atLeast(targets, results, Scenario.HOT_KEY, Store.POSTGRES, Implementation.JDBC_LOCK_REGISTRY,
        JDBC_HOT_KEY_FACTOR, "JdbcLockRegistry");
    atLeast(targets, results, Scenario.UNCONTENDED, Store.MYSQL, Implementation.JDBC_LOCK_REGISTRY_MYSQL,
        JDBC_UNCONTENDED_FACTOR, "JdbcLockRegistry");
    atLeast(targets, results, Scenario.HOT_KEY, Store.MYSQL, Implementation.JDBC_LOCK_REGISTRY_MYSQL,
        JDBC_HOT_KEY_FACTOR, "JdbcLockRegistry");
    for (Scenario scenario : List.of(Scenario.READ_HOT_KEY, Scenario.READ_ACROSS_PROCESSES, Scenario.SEMAPHORE)) {
      atLeast(targets, results, scenario, Store.REDIS, Implementation.REDISSON, SHARED_FACTOR, "Redisson");
      atLeast(targets, results, scenario, Store.ZOOKEEPER, Implementation.CURATOR, SHARED_FACTOR, "Curator");
    }
    for (Store store : BENCHMARK_STORES) {
      Implementation baton = Results.baton(store);
      atLeast(targets, Scenario.WRITE_UNCONTENDED, store,
          results.ratio(Scenario.WRITE_UNCONTENDED, baton, Scenario.UNCONTENDED, baton), WRITE_SHARE,
          "Baton mutex uncontended");
    }
    atLeast(targets, results, Scenario.REDIS_CLUSTER_SPREAD, Store.REDIS_CLUSTER, Implementation.REDISSON_CLUSTER,
        CLUSTER_FACTOR, "Redisson (cluster mode)");
    atLeast(targets, results, Scenario.MULTI_KEY, Store.REDIS, Implementation.REDISSON, MULTI_FACTOR,
        "RedissonMultiLock");
    for (Store store : BENCHMARK_STORES) {
      double bytes = results.heap(Results.baton(store)).map(HeapProbe.Heap::perLease).orElse(Double.NaN);
      targets.add(new Target(store.label() + ": heap per held lease under 2 KiB",
          Chart.number(bytes) + " B", bytes < MAX_BYTES_PER_LEASE));
    }
    return targets;
  }

  private static void atLeast(List<Target> targets, Results results, Scenario scenario, Store store,
      Implementation base, double factor, String baseName) {
    atLeast(targets, scenario, store, results.ratio(scenario, Results.baton(store), base), factor, baseName);
  }

  /** The target that Baton on {@code store} reach {@code factor} times its base; it reached {@code ratio}. */
  private static void atLeast(List<Target> targets, Scenario scenario, Store store, double ratio, double factor,
      String baseName) {
    targets.add(new Target(String.format(Locale.ROOT, "%s: %s, at least %sx %s", store.label(),
        scenario.id().replace('-', ' '), factor(factor), baseName), factor(ratio) + "x", ratio >= factor));
  }

  static String factor(double value) {
    return Double.isFinite(value) ? String.format(Locale.ROOT, "%.2f", value).replaceAll("\\.?0+$", "") : "n/a";
  }

  static String percent(double share) {
    return Double.isFinite(share) ? String.format(Locale.ROOT, "%.0f%%", share * 100) : "n/a";
  }
}
