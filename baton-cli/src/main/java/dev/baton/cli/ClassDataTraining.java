package dev.baton.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The short run {@code bin/baton} archives the loaded classes of (class-data sharing), so that later runs map them
 * instead of loading them, on the class path of those runs: a store's jars alone ({@code lib/STORE.classpath}, which
 * bin/baton gives exec, status, list, revoke and demo on a store the command line names), or the whole distribution.
 *
 * <p>A query that fails fast against a closed port on the store (Redis, etcd, PostgreSQL, MySQL; ZooKeeper's client
 * would wait out its connection timeout) loads picocli's model of the command, the client's connection code and
 * baton's error path. Then, where the store's server is installed, {@code exec} of {@code true} under a lock,
 * {@code status} and {@code list} on a server of the store ({@link TrainingServer}) started in a JVM of the whole class
 * path: a client that connected, locked and released loads classes, and generates lambdas, that a failed connection
 * never does, and so does the engine's acquire, lease, watchdog and the supervision of the command. The server's
 * classes are in neither the store's class path nor its archive. ZooKeeper's server is the embedded one and is always
 * there; PostgreSQL's and MySQL's take seconds to set up and are not started. The whole class path's training does
 * this on Redis, etcd and ZooKeeper; {@code memory://}'s runs a second of {@code baton demo}, the one command that
 * takes it.
 *
 * <p>It prints nothing; what the queries on closed ports say is expected to be a failure.
 */
public final class ClassDataTraining {
  private static final String[] FAILING_REDIS = {"status", "--backend", "redis://127.0.0.1:1", "--key", "cds"};
  private static final String[] FAILING_ETCD = {"status", "--backend", "etcd://127.0.0.1:1", "--key", "cds"};
  private static final String[] FAILING_POSTGRES = {"status", "--backend", "postgresql://127.0.0.1:1/cds", "--key",
      "cds"};
  private static final String[] FAILING_MYSQL = {"status", "--backend", "mysql://127.0.0.1:1/cds", "--key", "cds"};
  private static final String[] MEMORY_DEMO = {"demo", "--backend", "memory://cds", "--seconds", "1", "--workers",
      "2"};
  private static final Duration SERVER_STOP = Duration.ofSeconds(30);
  private static final PrintWriter NOWHERE = new PrintWriter(OutputStream.nullOutputStream(), true);

  private ClassDataTraining() {}

  /**
   * Trains for the class path of the store {@code args[0]} names, or for the whole class path ({@code all}), and
   * starts the servers it trains on in JVMs of the class path {@code args[1]}.
   */
  public static void main(String[] args) {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: ClassDataTraining STORE WHOLE_CLASS_PATH (got " + args.length
          + " arguments): name a store, or all, and the class path its servers start on.");
    }
    BatonCli.startQuickly();
    String store = args[0];
    String servers = args[1];
    switch (store) {
      case "all" -> {
        BatonCli.run(NOWHERE, NOWHERE, FAILING_REDIS);
        BatonCli.run(NOWHERE, NOWHERE, FAILING_ETCD);
        onServerApart("zookeeper", servers);
        onServerApart("redis", servers);
        onServerApart("etcd", servers);
      }
      case "redis" -> {
        BatonCli.run(NOWHERE, NOWHERE, FAILING_REDIS);
        onServerApart(store, servers);
      }
      case "etcd" -> {
        BatonCli.run(NOWHERE, NOWHERE, FAILING_ETCD);
        onServerApart(store, servers);
      }
      case "zookeeper" -> onServerApart(store, servers);
      case "postgres" -> BatonCli.run(NOWHERE, NOWHERE, FAILING_POSTGRES);
      case "mysql" -> BatonCli.run(NOWHERE, NOWHERE, FAILING_MYSQL);
      case "memory" -> BatonCli.run(NOWHERE, NOWHERE, MEMORY_DEMO);
      default -> throw new IllegalArgumentException("No class-data training for the store '" + store
          + "': name redis, etcd, zookeeper, postgres, mysql, memory or all.");
    }
  }

  /** What the quick commands do on a store that answers: lock and run a command, then ask about the lock. */
  private static void useFully(String backend) {
    BatonCli.run(NOWHERE, NOWHERE, "exec", "--backend", backend, "--key", "cds", "--", "true");
    BatonCli.run(NOWHERE, NOWHERE, "status", "--backend", backend, "--key", "cds");
    BatonCli.run(NOWHERE, NOWHERE, "list", "--backend", backend);
  }

  /**
   * Runs exec, status and list on a server of {@code store} that {@link TrainingServer} starts in a JVM of
   * {@code classPath}, if it starts: it prints the server's URI, and stops the server when its input ends.
   */
  private static void onServerApart(String store, String classPath) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder builder = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-cp", classPath,
        TrainingServer.class.getName(), store).redirectError(ProcessBuilder.Redirect.DISCARD);
    Process server;
    try {
      server = builder.start();
    } catch (IOException e) {
      return; // no server: the archive goes without a connected client's classes
    }
    try (BufferedReader output = server.inputReader(StandardCharsets.UTF_8)) {
      String uri = output.readLine();
      if (uri != null) {
        useFully(uri);
      }
    } catch (IOException e) {
      // The server's JVM ended without a URI (its server not installed): the archive goes without those classes.
    } finally {
      stop(server);
    }
  }

  private static void stop(Process server) {
    try {
      server.getOutputStream().close();
      if (!server.waitFor(SERVER_STOP.toMillis(), TimeUnit.MILLISECONDS)) {
        server.destroyForcibly();
      }
    } catch (IOException e) {
      server.destroyForcibly();
    } catch (InterruptedException e) {
      server.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
