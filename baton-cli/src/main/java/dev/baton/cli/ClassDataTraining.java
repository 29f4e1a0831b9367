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
 */
public final class ClassDataTraining {
  private static final String[][] FAILING_RUNS = {
      {"status", "--backend", "redis://127.0.0.1:1", "--key", "cds"},
      {"status", "--backend", "etcd://127.0.0.1:1", "--key", "cds"},
  };
  private static final PrintWriter NOWHERE = new PrintWriter(OutputStream.nullOutputStream(), true);

  private ClassDataTraining() {}

  public static void main(String[] args) {
    BatonCli.startQuickly();
    for (String[] run : FAILING_RUNS) {
      BatonCli.run(NOWHERE, NOWHERE, run);
    }
    try (EmbeddedZooKeeper zooKeeper = new EmbeddedZooKeeper()) {
      zooKeeper.start();
      useFully("zookeeper://" + zooKeeper.connectString());
    }
    ifInstalled(() -> {
      RedisServer redis = new RedisServer();
      redis.start();
      try {
        useFully(redis.uri());
      } finally {
        redis.stop();
      }
    });
    ifInstalled(() -> {
      try (EtcdServer etcd = new EtcdServer()) {
        etcd.start();
        useFully("etcd://" + etcd.endpoint().replaceFirst("^https?://", ""));
      }
    });
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
}
