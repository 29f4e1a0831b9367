package dev.baton.bench.suite;

import static dev.baton.bench.suite.Implementation.BATON_ETCD;
import static dev.baton.bench.suite.Implementation.BATON_REDIS;
import static dev.baton.bench.suite.Implementation.BATON_ZOOKEEPER;
import static dev.baton.bench.suite.Implementation.CURATOR;
import static dev.baton.bench.suite.Implementation.JETCD_LOCK;
import static dev.baton.bench.suite.Implementation.REDISSON;

import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;

/** The timed scenarios of the suite, what runs in each and on which keys. */
enum Scenario {
  UNCONTENDED("uncontended", "uncontended: 1 thread, lock + unlock of one key", 1, false, all()),
  SPREAD("spread", "spread: 8 threads, 8 keys (one each)", 8, false, all()),
  HOT_KEY("hot-key", "hot key in one process: 8 threads, 1 key", 8, true, locks()),
  ACROSS_PROCESSES("across-processes", "hot key across processes: 2 JVMs x 4 threads, 1 key", 4, true, locks());

  private final String id;
  private final String title;
  private final int threads;
  private final boolean oneKey;
  private final List<Implementation> implementations;

  Scenario(String id, String title, int threads, boolean oneKey, List<Implementation> implementations) {
    this.id = id;
    this.title = title;
    this.threads = threads;
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

  /** Threads per JVM. */
  int threads() {
    return threads;
  }

  List<Implementation> implementations() {
    return implementations;
  }

  /** The key of each thread of one JVM. */
  List<String> keys() {
    return oneKey
        ? Collections.nCopies(threads, "bench/" + id)
        : IntStream.range(0, threads).mapToObj(i -> "bench/" + id + "-" + i).toList();
  }

  private static List<Implementation> all() {
    return List.of(Implementation.values());
  }

  /** The locks: the raw cycles do not wait, so they cannot share a key. */
  private static List<Implementation> locks() {
    return List.of(BATON_REDIS, REDISSON, BATON_ZOOKEEPER, CURATOR, BATON_ETCD, JETCD_LOCK);
  }

  /** The implementations whose heap is measured: Baton on each store and its peer there. */
  static List<Implementation> heapImplementations() {
    return locks();
  }
}
