package dev.baton.cli;

import dev.baton.embedded.EmbeddedZooKeeper;
import java.io.OutputStream;
import java.io.PrintWriter;

/**
 * The short run {@code bin/baton} archives the loaded classes of (class-data sharing), so that later runs map them
 * instead of loading them: a status query on each store whose client fails fast against a closed port (Redis and
 * etcd; ZooKeeper's client waits out its connection timeout), which loads picocli's model of every command, the
 * clients' connection code and baton's error path; then an {@code exec} of {@code true} under a lock on an embedded
 * ZooKeeper, which loads what every exec runs whatever the store: the engine's acquire, the lease, the watchdog and
 * the supervision of the command. It prints nothing; what the queries say is expected to be a failure.
 */
public final class ClassDataTraining {
  private static final String[][] RUNS = {
      {"status", "--backend", "redis://127.0.0.1:1", "--key", "cds"},
      {"status", "--backend", "etcd://127.0.0.1:1", "--key", "cds"},
  };

  private ClassDataTraining() {}

  public static void main(String[] args) {
    BatonCli.startQuickly();
    PrintWriter nowhere = new PrintWriter(OutputStream.nullOutputStream(), true);
    for (String[] run : RUNS) {
      BatonCli.run(nowhere, nowhere, run);
    }
    try (EmbeddedZooKeeper zooKeeper = new EmbeddedZooKeeper()) {
      zooKeeper.start();
      BatonCli.run(nowhere, nowhere, new String[] {"exec", "--backend", "zookeeper://" + zooKeeper.connectString(),
          "--key", "cds", "--", "true"});
    }
  }
}
