package dev.baton.bench.suite;

/** The stores the suite runs on. */
enum Store {
  REDIS("Redis"),
  ZOOKEEPER("ZooKeeper"),
  ETCD("etcd"),
  POSTGRES("PostgreSQL");

  private final String label;

  Store(String label) {
    this.label = label;
  }

  /** The store's name on the page. */
  String label() {
    return label;
  }
}
