package dev.baton.cli;

import dev.baton.embedded.EmbeddedZooKeeper;
import dev.baton.servers.EtcdServer;
import dev.baton.servers.RedisServer;
import java.io.OutputStream;
import java.io.PrintWriter;

/**
 * The short run {@code bin/baton} archives the loaded classes of (class-data sharing), so that later runs map them
 * instead of loading them: a status query on each store whose client fails fast against a closed port (Redis and
 * etcd; ZooKeeper's client waits out its connection timeout), which loads picocli's model of every command, the
 * clients' connection code and baton's error path; then an {@code exec} of {@code true} under a lock on an embedded
 * ZooKeeper, which loads what every exec runs whatever the store: the engine's acquire, the lease, the watchdog and
 * the supervision of the command. Where {@code redis-server} and {@code etcd} are installed, it also runs
 * {@code exec}, {@code status} and {@code list} on a server of each started for the purpose: a client that connected,
 * locked and released loads classes, and generates lambdas, that a failed connection never does. It prints nothing;
 * what the queries on closed ports say is expected to be a failure.
 *
 * <p>Its argument, if any, names the one store a cache is for ({@code redis}, {@code etcd} or {@code zookeeper}): on
 * Java 24 and later the launcher keeps an ahead-of-time cache per store, because a run loads every class of its cache
 * as it starts, and a Redis exec that maps the classes of etcd's and ZooKeeper's clients too starts later (and the
 * embedded ZooKeeper's server classes, which no command but serve uses). A store's training then runs on that store
 * alone where its server is installed, and else on the embedded ZooKeeper, so that the engine's and exec's classes are
 * in its cache all the same.
 */
public final class ClassDataTraining {
  private static final String[] FAILING_REDIS = {"status", "--backend", "redis://127.0.0.1:1", "--key", "cds"};
  private static final String[] FAILING_ETCD = {"status", "--backend", "etcd://127.0.0.1:1", "--key", "cds"};
  private static final PrintWriter NOWHERE = new PrintWriter(OutputStream.nullOutputStream(), true);

  private ClassDataTraining() {}

  /** Trains for every store, or for the one store {@code args[0]} names. */
  public static void main(String[] args) {
    BatonCli.startQuickly();
    String store = args.length > 0 ? args[0] : "all";
    switch (store) {
      case "all" -> {
        BatonCli.run(NOWHERE, NOWHERE, FAILING_REDIS);
        BatonCli.run(NOWHERE, NOWHERE, FAILING_ETCD);
        onEmbeddedZooKeeper();
        ifInstalled(ClassDataTraining::onRedis);
        ifInstalled(ClassDataTraining::onEtcd);
      }
      case "redis" -> {
        BatonCli.run(NOWHERE, NOWHERE, FAILING_REDIS);
        orOnEmbeddedZooKeeper(ClassDataTraining::onRedis);
      }
      case "etcd" -> {
        BatonCli.run(NOWHERE, NOWHERE, FAILING_ETCD);
        orOnEmbeddedZooKeeper(ClassDataTraining::onEtcd);
      }
      case "zookeeper" -> onEmbeddedZooKeeper();
      default -> throw new IllegalArgumentException("No class-data training for the store '" + store
          + "': name redis, etcd or zookeeper, or none for all of them.");
    }
  }

  private static void onEmbeddedZooKeeper() {
    try (EmbeddedZooKeeper zooKeeper = new EmbeddedZooKeeper()) {
      zooKeeper.start();
      useFully("zookeeper://" + zooKeeper.connectString());
    }
  }

  private static void onRedis() {
    RedisServer redis = new RedisServer();
    redis.start();
    try {
      useFully(redis.uri());
    } finally {
      redis.stop();
    }
  }

  private static void onEtcd() {
    try (EtcdServer etcd = new EtcdServer()) {
      etcd.start();
      useFully("etcd://" + etcd.endpoint().replaceFirst("^https?://", ""));
    }
  }

  /** What the quick commands do on a store that answers: lock and run a command, then ask about the lock. */
  private static void useFully(String backend) {
    BatonCli.run(NOWHERE, NOWHERE, "exec", "--backend", backend, "--key", "cds", "--", "true");
    BatonCli.run(NOWHERE, NOWHERE, "status", "--backend", backend, "--key", "cds");
    BatonCli.run(NOWHERE, NOWHERE, "list", "--backend", backend);
  }

  /** Runs {@code training} unless the server it needs is not installed here; the archive then goes without it. */
  private static void ifInstalled(Runnable training) {
    try {
      training.run();
    } catch (IllegalStateException notInstalled) {
      // A machine without the server: the runs on it load those classes from the jar, as they did before.
    }
  }

  /** Runs {@code training}, or an exec on the embedded ZooKeeper where the server it needs is not installed. */
  private static void orOnEmbeddedZooKeeper(Runnable training) {
    try {
      training.run();
    } catch (IllegalStateException notInstalled) {
      onEmbeddedZooKeeper();
    }
  }
}
