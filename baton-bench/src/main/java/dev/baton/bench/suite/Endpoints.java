package dev.baton.bench.suite;

import java.util.List;

/** Where the four servers of a run listen; passed to the worker JVM as its arguments. */
record Endpoints(String redisUri, String zooKeeper, String etcd, String postgres) {
  /** The endpoints as command-line arguments, in the order {@link #fromArgs} reads them. */
  List<String> toArgs() {
    return List.of(redisUri, zooKeeper, etcd, postgres);
  }

  /** The endpoints {@link #toArgs()} wrote. */
  static Endpoints fromArgs(String[] args) {
    if (args.length != 4) {
      throw new IllegalArgumentException("Expected the Redis URI, the ZooKeeper connect string, the etcd endpoint"
          + " and the PostgreSQL URI, but got " + args.length + " arguments.");
    }
    return new Endpoints(args[0], args[1], args[2], args[3]);
  }
}
