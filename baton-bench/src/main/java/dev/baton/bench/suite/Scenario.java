package dev.baton.bench.suite;

import static dev.baton.bench.suite.Implementation.BATON_ETCD;
import static dev.baton.bench.suite.Implementation.BATON_ETCD_LINGERING;
import static dev.baton.bench.suite.Implementation.BATON_MYSQL;
import static dev.baton.bench.suite.Implementation.BATON_POSTGRES;
import static dev.baton.bench.suite.Implementation.BATON_POSTGRES_LINGERING;
import static dev.baton.bench.suite.Implementation.BATON_REDIS;
import static dev.baton.bench.suite.Implementation.BATON_REDIS_CLUSTER;
import static dev.baton.bench.suite.Implementation.BATON_REDIS_CLUSTER_ACKED;
import static dev.baton.bench.suite.Implementation.BATON_REDIS_LINGERING;
import static dev.baton.bench.suite.Implementation.BATON_REDIS_SINGLE_LOCKS;
import static dev.baton.bench.suite.Implementation.BATON_ZOOKEEPER;
import static dev.baton.bench.suite.Implementation.BATON_ZOOKEEPER_LINGERING;
import static dev.baton.bench.suite.Implementation.BATON_ZOOKEEPER_SINGLE_LOCKS;
import static dev.baton.bench.suite.Implementation.CURATOR;
import static dev.baton.bench.suite.Implementation.JDBC_LOCK_REGISTRY;
import static dev.baton.bench.suite.Implementation.JDBC_LOCK_REGISTRY_MYSQL;
import static dev.baton.bench.suite.Implementation.JETCD_LOCK;
import static dev.baton.bench.suite.Implementation.JETCD_LOCK_CURRENT;
import static dev.baton.bench.suite.Implementation.RAW_ETCD;
import static dev.baton.bench.suite.Implementation.RAW_POSTGRES;
import static dev.baton.bench.suite.Implementation.RAW_REDIS;
import static dev.baton.bench.suite.Implementation.RAW_REDIS_CLUSTER;
import static dev.baton.bench.suite.Implementation.RAW_ZOOKEEPER;
import static dev.baton.bench.suite.Implementation.REDISSON;
import static dev.baton.bench.suite.Implementation.REDISSON_CLUSTER;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The timed scenarios of the suite, in the order of the page: what the threads hold, how many run in how many JVMs,
 * on which keys, and which implementations run.
 */
enum Scenario {
  UNCONTENDED("uncontended", "uncontended: 1 thread, lock + unlock of one key", Hold.LOCK, 1, 1, false, all()),
  SPREAD("spread", "spread: 8 threads, 8 keys (one each)", Hold.LOCK, 8, 1, false, all()),
  HOT_KEY("hot-key", "hot key in one process: 8 threads, 1 key", Hold.LOCK, 8, 1, true, waitingLocks()),
  ACROSS_PROCESSES("across-processes", "hot key across processes: 2 JVMs x 4 threads, 1 key", Hold.LOCK, 4, 2, true,
      locks()),
  READ_HOT_KEY("read-hot-key", "read lock, hot key in one process: 8 threads, 1 key", Hold.READ_LOCK, 8, 1, true,
      shared()),
  READ_ACROSS_PROCESSES("read-across-processes", "read lock across processes: 2 JVMs x 4 threads, 1 key", Hold.READ_LOCK,
      4, 2, true, shared()),
  SEMAPHORE("semaphore", "semaphore of 4 permits in one process: 8 threads, 1 key", Hold.SEMAPHORE, 8, 1, true,
      shared()),
  WRITE_UNCONTENDED("write-uncontended", "write lock uncontended: 1 thread, acquire + release of one key's write lock",
      Hold.WRITE_LOCK, 1, 1, false, List.of(BATON_REDIS, BATON_ZOOKEEPER, BATON_ETCD)),
  /**
   * Spread on a cluster. Its id names the keys, {@code bench/redis-cluster-spread-0} to {@code -7}, whose slots (1439,
   * 5566, 9693, 13820, 1307, 5434, 9561, 13688) fall 3, 3 and 2 into the thirds of the slots that
   * {@code redis-cli --cluster create} gives the three masters: the 0 to 7 of {@code bench/cluster-N} would put 4 on
   * the first. Baton, Redisson and the raw cycle all hash a key's names by the key.
   */
  REDIS_CLUSTER_SPREAD("redis-cluster-spread", "Redis Cluster spread: 8 threads, 8 keys (one each) over 3 masters",
      Hold.LOCK, 8, 1, false, List.of(BATON_REDIS_CLUSTER, BATON_REDIS_CLUSTER_ACKED, REDISSON_CLUSTER,
          RAW_REDIS_CLUSTER)),
  /**
   * Several keys at once: each cycle holds 3 random keys of 10 ({@link KeySet}), all or none, so that the threads'
   * sets overlap; Baton's multi-lock against the peers' and against Baton's single locks taken in key order.
   */
  MULTI_KEY("multi-key", "multi-lock: 8 threads, 3 random keys of 10 per hold", Hold.MULTI_LOCK, 8, 1, true,
      List.of(BATON_REDIS, BATON_REDIS_SINGLE_LOCKS, REDISSON, BATON_ZOOKEEPER, BATON_ZOOKEEPER_SINGLE_LOCKS,
          CURATOR)),
  /**
   * One thread's lock/unlock loop on one key with {@code linger(5s)}, beside the same loop without it and the store's
   * raw cycle: the re-acquire takes the lingering lock back without a round trip. What a remote waiter sees of it is
   * measured beside it, by {@link RemoteWaiter}.
   */
  LINGER("linger", "lingering lock: 1 thread, lock + unlock of one key, with and without linger(5s)", Hold.LOCK, 1, 1,
      false, List.of(BATON_REDIS_LINGERING, BATON_REDIS, RAW_REDIS, BATON_ZOOKEEPER_LINGERING, BATON_ZOOKEEPER,
          RAW_ZOOKEEPER, BATON_ETCD_LINGERING, BATON_ETCD, RAW_ETCD, BATON_POSTGRES_LINGERING, BATON_POSTGRES,
          RAW_POSTGRES));

  private final String id;
  private final String title;
  private final Hold hold;
  private final int threads;
  private final int jvms;
  private final boolean oneKey;
  private final List<Implementation> implementations;

  Scenario(String id, String title, Hold hold, int threads, int jvms, boolean oneKey,
      List<Implementation> implementations) {
    this.id = id;
    this.title = title;
    this.hold = hold;
    this.threads = threads;
    this.jvms = jvms;
    this.oneKey = oneKey;
    this.implementations = implementations;
  }

  /** A short name, for files. */
  String id() {
    return id;
  }

  String title() {
    return title;
  }

  /** What each thread takes of its key. */
  Hold hold() {
    return hold;
  }

  /** Threads per JVM. */
  int threads() {
    return threads;
  }

  /** Whether half the threads run in a second JVM, the worker. */
  boolean acrossProcesses() {
    return jvms > 1;
  }

  /**
   * Whether all threads contend for one key (for a multi-lock, one prefix of the keys their sets are drawn from);
   * otherwise each has its own.
   */
  boolean oneKey() {
    return oneKey;
  }

  List<Implementation> implementations() {
    return implementations;
  }

  /** The stores of its implementations, in the order of {@link Store}. */
  List<Store> stores() {
    return Arrays.stream(Store.values())
        .filter(store -> implementations.stream().anyMatch(i -> i.store() == store)).toList();
  }

  /** The key of each thread of one JVM. */
  List<String> keys() {
    return oneKey
        ? Collections.nCopies(threads, "bench/" + id)
        : IntStream.range(0, threads).mapToObj(i -> "bench/" + id + "-" + i).toList();
  }

  /** Every mutex but those on the cluster and the lingering ones, which have scenarios of their own. */
  private static List<Implementation> all() {
    return Arrays.stream(Implementation.values())
        .filter(i -> i.store() != Store.REDIS_CLUSTER && !i.lingers() && i.label(Hold.LOCK) != null).toList();
  }

  /** The locks: the raw cycles do not wait, so they cannot share a key. */
  private static List<Implementation> locks() {
    return List.of(BATON_REDIS, REDISSON, BATON_ZOOKEEPER, CURATOR, BATON_ETCD, JETCD_LOCK, JETCD_LOCK_CURRENT);
  }

  /**
   * The locks that can wait, on every store: those of {@link #locks()}, and Baton and Spring Integration's
   * {@code JdbcLockRegistry} on PostgreSQL and on MariaDB (ShedLock's JDBC provider cannot wait).
   */
  private static List<Implementation> waitingLocks() {
    return Stream.concat(locks().stream(),
        Stream.of(BATON_POSTGRES, JDBC_LOCK_REGISTRY, BATON_MYSQL, JDBC_LOCK_REGISTRY_MYSQL)).toList();
  }

  /** Read locks and semaphores: Baton on each store, its peer on Redis and ZooKeeper (jetcd has neither). */
  private static List<Implementation> shared() {
    return List.of(BATON_REDIS, REDISSON, BATON_ZOOKEEPER, CURATOR, BATON_ETCD);
  }

  /**
   * The implementations whose heap is measured: Baton on each store and its peer there. Not jetcd's current line, whose
   * locks live in a JVM of its own, out of the probe's sight.
   */
  static List<Implementation> heapImplementations() {
    return locks().stream().filter(implementation -> implementation != JETCD_LOCK_CURRENT).toList();
  }
}
