package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Redis as Cluster deployments run it, for tests: three masters with one asynchronous replica each, six
 * {@code redis-server} processes in cluster mode on free loopback ports, without persistence, joined by
 * {@code redis-cli --cluster create}. Clients connect to {@link #uri()},
 * {@code redis-cluster://127.0.0.1:P1,...,127.0.0.1:P6}, and learn the slots from any node.
 *
 * <p>Each node also listens on its cluster bus port, its port + 10000, so nodes take ports from 20000 to 32767 whose
 * bus port is free too (a port above 55535 would have no bus port). A node is judged down after 1 s without an
 * answer (15 s by default), and a replica may always take over from its master however long it was cut off, so that
 * {@link #failover()} is quick.
 *
 * <p>The methods that change the set-up are meant for one thread at a time (the test's); the others may be called
 * from any thread. Every process still running when the JVM exits is killed by a shutdown hook.
 */
public final class RedisClusterSet implements AutoCloseable {
  /** Slots of a Redis cluster: every key hashes to one. */
  public static final int SLOTS = 16384;

  private static final int MASTERS = 3;
  private static final int NODES = 2 * MASTERS;
  private static final Duration NODE_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);
  private static final int BUS_PORT_OFFSET = 10_000;
  private static final int LOWEST_PORT = 20_000;
  /** Below the kernel's usual ephemeral ports (32768 on), so that no client socket takes a node's port meanwhile. */
  private static final int HIGHEST_PORT = 32_767;
  private static final int PORT_ATTEMPTS = 100;

  /** How many keys one round of {@link #endMigration} moves. */
  private static final int KEYS_PER_MOVE = 100;

  private final List<RedisServer> nodes = new ArrayList<>();
  /** The moves of slots that {@link #beginMigration} opened and {@link #endMigration} has not ended, by slot. */
  private final Map<Integer, Migration> migrations = new HashMap<>();

  /** A move of a slot from the master that served it to another. */
  private record Migration(RedisServer source, RedisServer target, String targetId) {}

  /**
   * Starts the six nodes, joins them into a cluster and returns once every node reports the cluster ok, with every
   * slot served and every replica's link to its master up.
   *
   * @throws IllegalStateException if a node did not start, {@code redis-cli} failed, or the cluster did not settle
   *     within 30 s; nothing is left running then
   */
  public void start() {
    if (!nodes.isEmpty()) {
      throw new IllegalStateException(this + " is already running; close() it first.");
    }
    try {
      for (int i = 0; i < NODES; i++) {
        RedisServer node = newNode();
        node.start();
        nodes.add(node);
      }
      create();
      awaitSettled();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The address clients use: {@code redis-cluster://127.0.0.1:P1,...} with every node as a seed. */
  public String uri() {
    return "redis-cluster://" + nodes.stream().map(node -> Loopback.HOST + ":" + node.port())
        .collect(Collectors.joining(","));
  }

  /** The six nodes, masters and replicas, in the order they were started. */
  public List<RedisServer> nodes() {
    return List.copyOf(nodes);
  }

  /** The nodes that are masters now, by the view of the first node that answers. */
  public List<RedisServer> masters() {
    return view().stream().filter(ClusterNode::isMaster).map(this::server).toList();
  }

  /** The slot {@code key} hashes to, as the cluster computes it ({@code CLUSTER KEYSLOT}). */
  public int slotOf(String key) {
    return ((Long) anyRunning().command("CLUSTER", "KEYSLOT", key)).intValue();
  }

  /** The master that serves {@code key}'s slot now, by the view of the first node that answers. */
  public RedisServer masterOf(String key) {
    int slot = slotOf(key);
    return view().stream().filter(node -> node.isMaster() && node.serves(slot)).findFirst().map(this::server)
        .orElseThrow(() -> new IllegalStateException("No master of " + this + " serves slot " + slot + " of '" + key
            + "'"));
  }

  /**
   * Kills the master that serves slot 0 (SIGKILL), as a crash would, waits until its replica has taken over and every
   * node that runs reports the cluster ok, then starts the killed node again, empty, as the new master's replica, and
   * returns once the cluster has settled again and every node sees the replica serve slot 0.
   *
   * @throws IllegalStateException if the replica did not take over, or the cluster did not settle, within 30 s
   */
  public void failover() {
    failover(0);
  }

  /**
   * As {@link #failover()}, for the master that serves {@code slot}: e.g. {@link #slotOf} a key, to fail over the
   * master a test's lock lives on.
   *
   * @throws IllegalStateException if the replica did not take over, or the cluster did not settle, within 30 s
   */
  public void failover(int slot) {
    List<ClusterNode> view = view();
    ClusterNode master = view.stream().filter(node -> node.isMaster() && node.serves(slot)).findFirst()
        .orElseThrow(() -> new IllegalStateException("No node of " + this + " serves slot " + slot + ": " + view));
    ClusterNode replica = view.stream().filter(node -> master.id().equals(node.masterId())).findFirst()
        .orElseThrow(() -> new IllegalStateException(master + " has no replica: " + view));
    RedisServer killed = server(master);
    RedisServer promoted = server(replica);
    killed.kill();
    Settling.awaitNothingMissing("the replica " + promoted + " to take over from " + killed, SETTLE_TIMEOUT, () -> {
      if (!((String) promoted.command("INFO", "replication")).contains("role:master")) {
        return promoted + " is no master yet";
      }
      return missingForClusterOk(nodes.stream().filter(RedisServer::isRunning).toList());
    });
    // The killed node comes back with a new id (its nodes.conf went with it): the others forget the old one first.
    for (RedisServer node : nodes) {
      if (node.isRunning()) {
        node.command("CLUSTER", "FORGET", master.id());
      }
    }
    killed.start();
    killed.command("CLUSTER", "MEET", Loopback.HOST, Integer.toString(promoted.port()));
    Settling.awaitNothingMissing(killed + " to meet every node", SETTLE_TIMEOUT, () -> {
      String info = (String) killed.command("CLUSTER", "INFO");
      return info.contains("cluster_known_nodes:" + NODES) ? null : killed + " reports " + firstLines(info);
    });
    killed.command("CLUSTER", "REPLICATE", replica.id());
    awaitSettled();
    // Each node learns the new owner of the slot by gossip: a test that asks any of them next gets the same answer.
    awaitSlotAt(slot, promoted, replica.id());
  }

  /**
   * The replica that copies {@code master} now, by the view of the first node that answers: e.g. to pause it
   * (SIGSTOP its {@link RedisServer#pid()}) so that the master's writes reach no replica.
   *
   * @throws IllegalStateException if {@code master} is no master of this cluster or has no replica now
   */
  public RedisServer replicaOf(RedisServer master) {
    List<ClusterNode> view = view();
    ClusterNode ofMaster = view.stream().filter(node -> node.isMaster() && node.port() == master.port()).findFirst()
        .orElseThrow(() -> new IllegalStateException(master + " is no master of " + this + ": " + view));
    return view.stream().filter(node -> ofMaster.id().equals(node.masterId())).findFirst().map(this::server)
        .orElseThrow(() -> new IllegalStateException(master + " has no replica: " + view));
  }

  /**
   * Moves {@code slot}, with all its keys, to the master {@code target}, as {@code redis-cli --cluster reshard} does:
   * {@link #beginMigration}, {@link #moveKeys} until none is left, {@link #endMigration}.
   *
   * @throws IllegalStateException as those methods do
   */
  public void migrateSlot(int slot, RedisServer target) {
    beginMigration(slot, target);
    endMigration(slot);
  }

  /**
   * Opens the move of {@code slot} to the master {@code target}: the target imports it and the master that serves it
   * now migrates it (CLUSTER SETSLOT IMPORTING, then MIGRATING). Its keys stay where they are until {@link #moveKeys};
   * meanwhile the source answers ASK for a key it no longer has, and TRYAGAIN for a command on several keys of which
   * it has some only.
   *
   * @throws IllegalArgumentException if {@code slot} is no slot, or {@code target} is no master or serves it already
   * @throws IllegalStateException if a move of {@code slot} is open already
   */
  public void beginMigration(int slot, RedisServer target) {
    if (slot < 0 || slot >= SLOTS) {
      throw new IllegalArgumentException("Slot " + slot + " is no slot of a cluster: pass 0 to " + (SLOTS - 1) + ".");
    }
    if (migrations.containsKey(slot)) {
      throw new IllegalStateException("Slot " + slot + " is being moved already: endMigration(" + slot + ") first.");
    }
    List<ClusterNode> view = view();
    ClusterNode source = view.stream().filter(node -> node.isMaster() && node.serves(slot)).findFirst()
        .orElseThrow(() -> new IllegalStateException("No master of " + this + " serves slot " + slot + ": " + view));
    ClusterNode into = view.stream().filter(node -> node.isMaster() && node.port() == target.port()).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(target + " is no master of " + this
            + ": pass one of masters()."));
    if (into.id().equals(source.id())) {
      throw new IllegalArgumentException(target + " serves slot " + slot + " already: pass another master.");
    }
    // The target first, so that the source's ASK redirections find it importing.
    target.command("CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", source.id());
    server(source).command("CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", into.id());
    migrations.put(slot, new Migration(server(source), target, into.id()));
  }

  /**
   * Moves up to {@code count} keys of {@code slot} from its source to its target, each with one MIGRATE (CLUSTER
   * GETKEYSINSLOT names them), so that a test can act between two keys.
   *
   * @return how many keys were moved: fewer than {@code count} once the source has no more
   * @throws IllegalArgumentException if {@code count} is below 1
   * @throws IllegalStateException if no move of {@code slot} is open, or a MIGRATE failed
   */
  public int moveKeys(int slot, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("Cannot move " + count + " keys: pass 1 or more.");
    }
    Migration migration = openMigration(slot);
    List<?> keys = (List<?>) migration.source().command("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot),
        Integer.toString(count));
    for (Object key : keys) {
      migration.source().command("MIGRATE", Loopback.HOST, Integer.toString(migration.target().port()), (String) key,
          "0", Long.toString(SETTLE_TIMEOUT.toMillis()));
    }
    return keys.size();
  }

  /**
   * Moves the keys of {@code slot} that are still at its source, gives the slot to its target on every master (the
   * target first, then the source, then the others: CLUSTER SETSLOT NODE), and returns once every node that runs
   * says the target serves it, no node moves it any more, and the cluster has settled.
   *
   * @throws IllegalStateException if no move of {@code slot} is open, or the nodes did not agree within 30 s
   */
  public void endMigration(int slot) {
    Migration migration = openMigration(slot);
    int moved;
    do {
      moved = moveKeys(slot, KEYS_PER_MOVE);
    } while (moved == KEYS_PER_MOVE);
    List<RedisServer> order = new ArrayList<>(List.of(migration.target(), migration.source()));
    masters().stream().filter(master -> !order.contains(master)).forEach(order::add);
    for (RedisServer master : order) {
      master.command("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", migration.targetId());
    }
    migrations.remove(slot);
    awaitSlotAt(slot, migration.target(), migration.targetId());
    awaitSettled();
  }

  /** Waits until every node that runs sees {@code slot} served by {@code master} alone, and moved by no one. */
  private void awaitSlotAt(int slot, RedisServer master, String masterId) {
    Settling.awaitNothingMissing("every node to see slot " + slot + " at " + master, SETTLE_TIMEOUT,
        () -> nodes.stream().filter(RedisServer::isRunning).map(node -> missingForSlotAt(node, slot, masterId))
            .filter(missing -> missing != null).findFirst().orElse(null));
  }

  private Migration openMigration(int slot) {
    Migration migration = migrations.get(slot);
    if (migration == null) {
      throw new IllegalStateException("No move of slot " + slot + " is open: beginMigration(" + slot
          + ", target) first.");
    }
    return migration;
  }

  /** What keeps {@code node} from seeing {@code slot} served by {@code masterId} alone, with no move of it, or null. */
  private static String missingForSlotAt(RedisServer node, int slot, String masterId) {
    List<ClusterNode> view = ClusterNode.parseAll((String) node.command("CLUSTER", "NODES"));
    if (view.stream().anyMatch(other -> other.moves(slot))) {
      return node + " still sees slot " + slot + " being moved: " + view;
    }
    List<String> servers = view.stream().filter(other -> other.serves(slot)).map(ClusterNode::id).toList();
    return servers.equals(List.of(masterId)) ? null : node + " sees slot " + slot + " at " + servers;
  }

  /**
   * Waits until every node reports the cluster ok with every slot served and knows six nodes, three masters serve
   * slots, and every replica's link to its master is up.
   *
   * @throws IllegalStateException if that did not happen within 30 s; the message says what was missing
   */
  public void awaitSettled() {
    Settling.awaitNothingMissing("the cluster to settle", SETTLE_TIMEOUT, () -> {
      String clusterNotOk = missingForClusterOk(nodes);
      if (clusterNotOk != null) {
        return clusterNotOk;
      }
      List<ClusterNode> view = view();
      if (view.stream().filter(ClusterNode::isMaster).count() != MASTERS || view.size() != NODES) {
        return "the cluster has not " + MASTERS + " masters and " + MASTERS + " replicas: " + view;
      }
      for (ClusterNode replica : view.stream().filter(node -> !node.isMaster()).toList()) {
        String replication = (String) server(replica).command("INFO", "replication");
        if (!replication.contains("master_link_status:up")) {
          return "the replica " + replica + " has no link to its master up";
        }
      }
      return null;
    });
  }

  /** Stops every node. */
  @Override
  public void close() {
    nodes.forEach(RedisServer::stop);
    nodes.clear();
    migrations.clear();
  }

  @Override
  public String toString() {
    return "Redis cluster of " + nodes;
  }

  private static RedisServer newNode() {
    return new RedisServer(List.of(
        "--cluster-enabled", "yes",
        "--cluster-config-file", "nodes.conf",
        "--cluster-node-timeout", Long.toString(NODE_TIMEOUT.toMillis()),
        "--cluster-replica-validity-factor", "0",
        "--repl-diskless-sync-delay", "0"), RedisClusterSet::portWithFreeBusPort);
  }

  /** A port from 20000 to 32767 that is free, as is the port 10000 above it, the node's cluster bus. */
  private static int portWithFreeBusPort() {
    for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(LOWEST_PORT, HIGHEST_PORT + 1);
      if (isFree(port) && isFree(port + BUS_PORT_OFFSET)) {
        return port;
      }
    }
    throw new IllegalStateException("Found no free loopback port from " + LOWEST_PORT + " to " + HIGHEST_PORT
        + " with its cluster bus port free too in " + PORT_ATTEMPTS + " tries.");
  }

  private static boolean isFree(int port) {
    try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getByName(Loopback.HOST))) {
      return true;
    } catch (IOException taken) {
      return false;
    }
  }

  /** {@code redis-cli --cluster create} with the nodes, one replica per master. */
  private void create() {
    Path cli = ServerBinary.REDIS_CLI.locate();
    List<String> command = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
    nodes.forEach(node -> command.add(Loopback.HOST + ":" + node.port()));
    command.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      ProcessOutput output = ProcessOutput.follow(process, "redis-cli-cluster-create");
      if (!process.waitFor(SETTLE_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("redis-cli --cluster create did not end within "
            + SETTLE_TIMEOUT.toSeconds() + " s. Its output:\n" + output.tail());
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException("redis-cli --cluster create failed (exit " + process.exitValue()
            + "). Its output:\n" + output.tail());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not run " + cli + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while redis-cli created the cluster", e);
    }
  }

  /** What keeps one of {@code servers} from reporting the cluster ok with every slot served, or null. */
  private static String missingForClusterOk(List<RedisServer> servers) {
    for (RedisServer node : servers) {
      String info = (String) node.command("CLUSTER", "INFO");
      if (!info.contains("cluster_state:ok") || !info.contains("cluster_slots_ok:" + SLOTS)) {
        return node + " reports " + firstLines(info);
      }
    }
    return null;
  }

  private static String firstLines(String info) {
    return Arrays.stream(info.split("\r?\n")).limit(7).collect(Collectors.joining(", "));
  }

  /** The cluster as the first node that answers sees it ({@code CLUSTER NODES}), failed nodes left out. */
  private List<ClusterNode> view() {
    return ClusterNode.parseAll((String) anyRunning().command("CLUSTER", "NODES")).stream()
        .filter(parsed -> !parsed.flags().contains("fail"))
        .sorted(Comparator.comparingInt(ClusterNode::port))
        .toList();
  }

  private RedisServer anyRunning() {
    return nodes.stream().filter(RedisServer::isRunning).findFirst()
        .orElseThrow(() -> new IllegalStateException("No node of " + this + " runs."));
  }

  private RedisServer server(ClusterNode node) {
    Optional<RedisServer> server = nodes.stream().filter(candidate -> candidate.port() == node.port()).findFirst();
    return server.orElseThrow(() -> new IllegalStateException(node + " is no node of " + this));
  }

  /**
   * One line of {@code CLUSTER NODES}: {@code ID HOST:PORT@BUS FLAGS MASTER PING PONG EPOCH LINK SLOT...}.
   *
   * @param masterId the id of its master for a replica, {@code -} for a master
   * @param slots the slot ranges it serves, such as {@code 0-5460}
   */
  private record ClusterNode(String id, int port, List<String> flags, String masterId, List<String> slots) {
    /** Every line of a {@code CLUSTER NODES} reply. */
    static List<ClusterNode> parseAll(String nodes) {
      return Arrays.stream(nodes.split("\n")).filter(line -> !line.isBlank()).map(ClusterNode::parse).toList();
    }

    static ClusterNode parse(String line) {
      String[] fields = line.trim().split(" ");
      String address = fields[1].substring(0, fields[1].indexOf('@'));
      int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
      return new ClusterNode(fields[0], port, List.of(fields[2].split(",")), fields[3],
          List.of(fields).subList(8, fields.length));
    }

    boolean isMaster() {
      return flags.contains("master");
    }

    /** Whether it shows {@code slot} being imported or migrated: {@code [SLOT-<-ID]} or {@code [SLOT->-ID]}. */
    boolean moves(int slot) {
      return slots.stream().anyMatch(range -> range.startsWith("[" + slot + "-"));
    }

    boolean serves(int slot) {
      return slots.stream().filter(range -> !range.startsWith("[")).anyMatch(range -> {
        int dash = range.indexOf('-');
        int from = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
        int to = Integer.parseInt(dash < 0 ? range : range.substring(dash + 1));
        return from <= slot && slot <= to;
      });
    }
  }
}
