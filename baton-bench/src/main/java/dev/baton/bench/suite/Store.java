package dev.baton.bench.suite;

import java.util.Locale;

/** The stores the suite runs on. */
enum Store {
  REDIS("Redis"),
  ZOOKEEPER("ZooKeeper"),
  ETCD("etcd"),
  POSTGRES("PostgreSQL"),
  /** Debian's MariaDB, which baton-mysql serves as it serves MySQL; {@code mysql} in {@code bench.stores}. */
  MYSQL("MariaDB"),
  /** Three masters with a replica each: only the scenario {@link Scenario#REDIS_CLUSTER_SPREAD} runs on it. */
  REDIS_CLUSTER("Redis Cluster");

  private final String label;

  Store(String label) {
    this.label = label;
  }

  /** The store's name on the page. */
  String label() {
    return label;
  }

  /** The store's name in {@code bench.stores}: {@code redis}, ..., {@code redis-cluster}. */
  String id() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
