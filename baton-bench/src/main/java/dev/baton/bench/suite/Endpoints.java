package dev.baton.bench.suite;

import java.util.List;

/** Where the servers of a run listen; passed to the worker JVM as its arguments. */
record Endpoints(String redisUri, String zooKeeper, String etcd, String postgres, String redisClusterUri,
    String mariaDb) {
  /** The endpoints as command-line arguments, in the order {@link #fromArgs} reads them. */
  List<String> toArgs() {
    return List.of(redisUri, zooKeeper, etcd, postgres, redisClusterUri, mariaDb);
  }

  /** The endpoints {@link #toArgs()} wrote. */
  static Endpoints fromArgs(String[] args) {
    if (args.length != 6) {
      throw new IllegalArgumentException("Expected the Redis URI, the ZooKeeper connect string, the etcd endpoint,"
          + " the PostgreSQL URI, the Redis Cluster URI and the MariaDB URI, but got " + args.length + " arguments.");
    }
    return new Endpoints(args[0], args[1], args[2], args[3], args[4], args[5]);
  }

  /** The nodes of {@link #redisClusterUri()}, {@code redis-cluster://HOST:PORT,...}, as {@code HOST:PORT} each. */
  List<String> redisClusterNodes() {
    return List.of(redisClusterUri.substring(redisClusterUri.indexOf("://") + 3).split(","));
  }
}
