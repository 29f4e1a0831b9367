package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import dev.baton.embedded.internal.WorkDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A real Galera cluster of MariaDB nodes on loopback, for tests: three nodes by default, each a {@code mariadbd} with
 * its own data directory, free SQL port, group-communication port and incremental-state-transfer port, replicating
 * through Debian's {@code galera-4} library ({@link GaleraProvider}). A cluster of three, not two and an arbitrator
 * ({@code garbd}): a node killed leaves two of three, a quorum, with no other package to install, and each node is
 * small (32 MB of buffer pool, 16 MB of write-set cache).
 *
 * <p>One data directory is made by {@code mariadb-install-db} and copied to every node before any starts. The first
 * node bootstraps the cluster ({@code --wsrep-new-cluster}); the others join it, each taking the cluster's state from
 * a node already in it through {@code mariadb-dump} over loopback ({@code wsrep_sst_method=mysqldump}, as
 * {@code root}, whose password is empty: it needs nothing beyond {@code mariadb-server}, where {@code rsync}'s daemon,
 * run as root, writes as {@code nobody} and fails, and {@code skip} leaves a joiner waiting); {@link #start()}
 * returns once every node is synced in a cluster of all of them. The test
 * user {@value MariaDbServer#USER} logs in to any node with {@value MariaDbServer#PASSWORD} and owns the database
 * {@value MariaDbServer#DATABASE}, as on a {@link MariaDbServer}.
 *
 * <p>Nodes are numbered from 0. Each is stopped by its own pid ({@link #stop()}: SIGTERM, SIGKILL after 10 s; or
 * {@link #kill(int)}: SIGKILL at once) and a node still running when the JVM exits is killed by a shutdown hook.
 * {@link #start()}, {@link #stop()} and {@link #kill(int)} are meant for one thread at a time (the test's).
 */
public final class GaleraCluster {
  /** The number of nodes unless told otherwise. */
  public static final int DEFAULT_SIZE = 3;

  private static final String NAME = "Galera";
  private static final String READY = "ready for connections";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(5);
  /**
   * Galera's own settings: each node's ports on loopback, a small write-set cache, and a node that stops answering
   * suspected after 3 s (5 s by default) and dropped after at most 10 s (15 s), so that a killed node leaves the
   * cluster soon; no recovery of an old view at start (each cluster is new).
   */
  private static final String PROVIDER_OPTIONS = "gmcast.listen_addr=tcp://%s:%d; ist.recv_addr=%s:%d;"
      + " gcache.size=16M; evs.suspect_timeout=PT3S; evs.inactive_timeout=PT10S; pc.recovery=false";

  private final int size;
  private volatile List<Node> nodes = List.of();

  /** A cluster of {@value #DEFAULT_SIZE} nodes, not started yet. */
  public GaleraCluster() {
    this(DEFAULT_SIZE);
  }

  /**
   * A cluster of {@code size} nodes, not started yet.
   *
   * @throws IllegalArgumentException if {@code size} is below 2 or above 5 (each node is a server of its own)
   */
  public GaleraCluster(int size) {
    if (size < 2 || size > 5) {
      throw new IllegalArgumentException("A Galera cluster of the tests has 2 to 5 nodes, not " + size + ".");
    }
    this.size = size;
  }

  /**
   * Makes the nodes' data, starts them on free ports and returns once every node is synced and ready in a cluster of
   * all of them.
   *
   * @throws IllegalStateException if a node is already running, if MariaDB or Galera is not installed (the message
   *     says how to install it), or if a node did not start or the cluster did not form within a bound (the message
   *     names the node, its ports and data, and quotes the last lines of its log); every node started is stopped
   */
  public void start() {
    if (nodes.stream().anyMatch(Node::isRunning)) {
      throw new IllegalStateException("The Galera cluster is already running; stop() it first.");
    }
    stop();
    MariaDbBinaries.Found binaries = MariaDbBinaries.locate();
    Path provider = GaleraProvider.locate();
    nodes = newNodes(binaries);
    try {
      for (Node node : nodes) {
        launch(binaries, provider, node);
      }
      awaitSynced();
    } catch (RuntimeException e) {
      stop();
      throw e;
    }
  }

  /** Stops every node still running by its pid (SIGTERM, SIGKILL after 10 s) and deletes every node's data. */
  public void stop() {
    List<Node> stopping = nodes;
    nodes = List.of();
    for (Node node : stopping) {
      ServerRun run = node.run;
      node.run = null;
      if (run != null) {
        shutDown(run);
      }
      WorkDirs.delete(node.dir, NAME);
    }
  }

  /**
   * Kills node {@code node} (SIGKILL), as a crash would, and waits until its process is gone; the others go on, and
   * drop it from their cluster within about 10 s ({@link #awaitSynced()} waits for that). Its data stays until
   * {@link #stop()}.
   *
   * @throws IllegalStateException if the node is not running
   */
  public void kill(int node) {
    Node killed = running(node);
    ServerRun run = killed.run;
    killed.run = null;
    Processes.kill(run.process(), STOP_TIMEOUT, "mariadbd (Galera node " + node + ")");
    Processes.forgetOnExit(run.exitHook());
  }

  /**
   * Waits until every running node is synced with the others, ready for statements, and counts exactly the running
   * nodes in its cluster, as after {@link #start()} or after a {@link #kill(int)} once the others dropped the node.
   *
   * @throws IllegalStateException after 60 s, saying what each node reported last
   */
  public void awaitSynced() {
    List<Node> live = nodes.stream().filter(Node::isRunning).toList();
    Settling.awaitNothingMissing("every running node of " + this + " to be synced in a cluster of " + live.size(),
        SYNC_TIMEOUT, () -> {
          List<String> missing = new ArrayList<>();
          for (Node node : live) {
            Map<String, String> status = wsrepStatus(node);
            if (!String.valueOf(live.size()).equals(status.get("wsrep_cluster_size"))
                || !"ON".equals(status.get("wsrep_ready"))
                || !"Synced".equals(status.get("wsrep_local_state_comment"))) {
              missing.add("node " + node.index + " reports " + status);
            }
          }
          return missing.isEmpty() ? null : String.join("; ", missing);
        });
  }

  /** The number of nodes, running or not. */
  public int size() {
    return size;
  }

  /** Whether node {@code node}'s process is alive. */
  public boolean isRunning(int node) {
    return node(node).isRunning();
  }

  /** Node {@code node}'s loopback SQL port. */
  public int port(int node) {
    return node(node).sqlPort;
  }

  /**
   * The address of node {@code node} with the test user and password:
   * {@code mariadb://baton:PASSWORD@127.0.0.1:PORT/baton}.
   */
  public String uri(int node) {
    return "mariadb://" + MariaDbServer.USER + ":" + MariaDbServer.PASSWORD + "@" + Loopback.HOST + ":" + port(node)
        + "/" + MariaDbServer.DATABASE;
  }

  /** The JDBC URL of node {@code node}, without user or password: {@code jdbc:mariadb://127.0.0.1:PORT/baton}. */
  public String jdbcUrl(int node) {
    return "jdbc:mariadb://" + Loopback.HOST + ":" + port(node) + "/" + MariaDbServer.DATABASE;
  }

  /** The pid of node {@code node}'s process. */
  public long pid(int node) {
    return running(node).run.process().pid();
  }

  /** Node {@code node}'s last lines of log, e.g. to check that it logged no error. */
  public String logTail(int node) {
    ServerRun run = node(node).run;
    return run == null ? "" : run.output().tail();
  }

  @Override
  public String toString() {
    return "GaleraCluster{nodes=" + nodes.stream().map(Node::toString).toList() + '}';
  }

  /**
   * The nodes, each with free ports and a work directory holding the same new data: made once by
   * {@code mariadb-install-db} in the first node's directory, and copied.
   */
  private List<Node> newNodes(MariaDbBinaries.Found binaries) {
    int[] ports = Loopback.freePorts(3 * size);
    List<Node> made = new ArrayList<>(size);
    try {
      Path first = MariaDbInstall.newDataDir(binaries, "baton-galera-0-", NAME);
      made.add(new Node(0, ports[0], ports[1], ports[2], first));
      for (int i = 1; i < size; i++) {
        Path dir = WorkDirs.create("baton-galera-" + i + "-", NAME);
        made.add(new Node(i, ports[3 * i], ports[3 * i + 1], ports[3 * i + 2], dir));
        copy(first, dir);
      }
      return made;
    } catch (RuntimeException e) {
      made.forEach(node -> WorkDirs.delete(node.dir, NAME));
      throw e;
    }
  }

  /** Copies the data directory and init file of {@code from} into {@code to}. */
  private static void copy(Path from, Path to) {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not copy the Galera nodes' data from " + from + " to " + to + ": "
          + e.getMessage(), e);
    }
  }

  /** Starts {@code node}: the first bootstraps the cluster, the others join it. */
  private void launch(MariaDbBinaries.Found binaries, Path provider, Node node) {
    List<String> command = MariaDbInstall.serverCommand(binaries, node.dir, node.sqlPort);
    String members = String.join(",", nodes.stream().map(n -> Loopback.HOST + ":" + n.groupPort).toList());
    command.addAll(List.of("--wsrep-on=ON", "--wsrep-provider=" + provider, "--wsrep-cluster-name=baton-test",
        "--wsrep-cluster-address=gcomm://" + members, "--wsrep-node-name=node" + node.index,
        "--wsrep-node-address=" + Loopback.HOST + ":" + node.groupPort,
        "--wsrep-provider-options=" + String.format(PROVIDER_OPTIONS, Loopback.HOST, node.groupPort, Loopback.HOST,
            node.istPort),
        "--wsrep-sst-method=mysqldump", "--wsrep-sst-auth=root:",
        "--wsrep-sst-receive-address=" + Loopback.HOST + ":" + node.sqlPort, "--binlog-format=ROW",
        "--innodb-autoinc-lock-mode=2", "--default-storage-engine=InnoDB"));
    if (node.index == 0) {
      command.add("--wsrep-new-cluster");
    }
    Optional<ServerRun> started;
    try {
      started = ServerRun.launch(NAME + " node " + node.index, binaries.server(), command, node.dir,
          "galera-" + node.index, node.sqlPort, READY, START_TIMEOUT, GaleraCluster::shutDown);
    } catch (IllegalStateException e) {
      throw new IllegalStateException("Galera node " + node.index + " of " + size + " (" + node + ") did not "
          + (node.index == 0 ? "bootstrap the cluster" : "join the cluster") + "; its log is its output, quoted here: "
          + e.getMessage(), e);
    }
    node.run = started.orElseThrow(() -> new IllegalStateException("Galera node " + node.index + " (" + node
        + ") found one of its ports taken by the time it started; is something grabbing loopback ports?"));
  }

  /** The {@code wsrep_} status of {@code node}, through the {@code mariadb} client. */
  private static Map<String, String> wsrepStatus(Node node) {
    Commands.Completion shown = MariaDbInstall.client(node.sqlPort, "SHOW GLOBAL STATUS WHERE Variable_name IN"
        + " ('wsrep_cluster_size', 'wsrep_ready', 'wsrep_local_state_comment')", false, CLIENT_TIMEOUT);
    if (!shown.succeeded()) {
      throw new IllegalStateException("node " + node.index + " did not answer: " + shown.output().strip()
          + "; its log's last lines:\n" + node.logTail());
    }
    Map<String, String> status = new HashMap<>();
    shown.output().lines().map(line -> line.split("\t", 2)).filter(pair -> pair.length == 2)
        .forEach(pair -> status.put(pair[0].strip(), pair[1].strip()));
    return status;
  }

  private Node node(int node) {
    List<Node> current = nodes;
    if (current.isEmpty()) {
      throw new IllegalStateException("The Galera cluster has not been started; call start() first.");
    }
    if (node < 0 || node >= current.size()) {
      throw new IllegalArgumentException("The Galera cluster has nodes 0 to " + (current.size() - 1) + ", not "
          + node + ".");
    }
    return current.get(node);
  }

  private Node running(int node) {
    Node found = node(node);
    if (!found.isRunning()) {
      throw new IllegalStateException("Galera node " + node + " is not running.");
    }
    return found;
  }

  /** A clean shutdown (SIGTERM), SIGKILL if it takes too long. */
  private static void shutDown(ServerRun stopping) {
    Processes.terminate(stopping.process(), STOP_TIMEOUT, "mariadbd (Galera)");
    Processes.forgetOnExit(stopping.exitHook());
  }

  /** One node: its ports, its work directory, and its server while it runs. */
  private static final class Node {
    final int index;
    final int sqlPort;
    final int groupPort;
    final int istPort;
    final Path dir;
    volatile ServerRun run;

    Node(int index, int sqlPort, int groupPort, int istPort, Path dir) {
      this.index = index;
      this.sqlPort = sqlPort;
      this.groupPort = groupPort;
      this.istPort = istPort;
      this.dir = dir;
    }

    boolean isRunning() {
      ServerRun current = run;
      return current != null && current.process().isAlive();
    }

    String logTail() {
      ServerRun current = run;
      return current == null ? "" : current.output().tail();
    }

    @Override
    public String toString() {
      return "node " + index + ": SQL port " + sqlPort + ", group port " + groupPort + ", IST port " + istPort
          + ", data in " + dir + (isRunning() ? ", running" : "");
    }
  }
}
