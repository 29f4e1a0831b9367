package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Redis as Sentinel deployments run it, for tests: a master, one asynchronous replica, and three sentinels watching
 * them (quorum 2), all {@code redis-server} processes on free loopback ports, without persistence. Clients connect to
 * {@link #uri()}, {@code redis-sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3#baton}, and find the master through
 * the sentinels.
 *
 * <p>Two failovers: {@link #failover()} kills the master, as a crash would, and the sentinels promote the replica
 * once they have judged the master down (after 1 s without an answer); {@link #switchOver()} asks them for a failover
 * while the master runs ({@code SENTINEL FAILOVER}). What the master had not yet sent to the replica is lost, as in a
 * real failover. Each method, and {@link #start()}, waits on what the servers and sentinels report, never for a fixed
 * time.
 *
 * <p>Sentinel's timers are shortened so that tests need not wait long: a master is down after 1 s without an answer
 * (30 s by default), a failover may take 3 s (3 min), and each sentinel asks every server for its role every second
 * (10 s) and says hello to the others every second (2 s). So the old master of a {@link #switchOver()} is turned into
 * a replica about 4 s after the switch (Sentinel waits four hello periods, then acts at its next look), where with
 * the default timers that takes 10 to 20 s.
 *
 * <p>The methods that change the set-up are meant for one thread at a time (the test's); the others may be called
 * from any thread. Every process still running when the JVM exits is killed by a shutdown hook.
 */
public final class RedisSentinelSet implements AutoCloseable {
  /** The name the sentinels know the master by, and the fragment of {@link #uri()}. */
  public static final String MASTER_NAME = "baton";

  private static final int SENTINELS = 3;
  private static final int QUORUM = 2;
  private static final Duration DOWN_AFTER = Duration.ofSeconds(1);
  private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(3);
  /** How often a sentinel asks each server for its role (INFO); 10 s by default. */
  private static final Duration INFO_PERIOD = Duration.ofSeconds(1);
  /** How often a sentinel says hello to the others through the servers; 2 s by default. */
  private static final Duration PUBLISH_PERIOD = Duration.ofSeconds(1);
  private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);

  private volatile RedisServer master = new RedisServer();
  private volatile RedisServer replica = new RedisServer();
  private final List<RedisSentinel> sentinels = new ArrayList<>();

  /**
   * Starts the master, the replica and the sentinels, and returns once the replica is in sync and every sentinel
   * sees the master, the replica and the other sentinels: a failover can happen from then on.
   *
   * @throws IllegalStateException if a process did not start, or the set-up did not settle within 30 s; nothing is
   *     left running then
   */
  public void start() {
    if (!sentinels.isEmpty()) {
      throw new IllegalStateException(this + " is already running; close() it first.");
    }
    try {
      master.start();
      replica.start();
      replicate(replica, master);
      for (int i = 0; i < SENTINELS; i++) {
        RedisSentinel sentinel = RedisSentinel.start(MASTER_NAME, master.port(), QUORUM, DOWN_AFTER, FAILOVER_TIMEOUT);
        sentinels.add(sentinel);
        sentinel.command("SENTINEL", "DEBUG", "info-period", Long.toString(INFO_PERIOD.toMillis()),
            "publish-period", Long.toString(PUBLISH_PERIOD.toMillis()));
      }
      awaitSettled();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The address clients use: {@code redis-sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3#baton}. */
  public String uri() {
    return "redis-sentinel://" + sentinels.stream().map(RedisSentinel::address).collect(Collectors.joining(","))
        + "#" + MASTER_NAME;
  }

  /** The server that is the master now. */
  public RedisServer master() {
    return master;
  }

  /** The server that replicates the master now. */
  public RedisServer replica() {
    return replica;
  }

  /**
   * Kills the master (SIGKILL), waits until every sentinel names the replica as the master, then starts the killed
   * server again, empty, as the new master's replica, and returns once the set-up has settled again.
   *
   * @throws IllegalStateException if the sentinels did not promote the replica, or the set-up did not settle, within
   *     30 s
   */
  public void failover() {
    followPromotion();
    RedisServer killed = master;
    RedisServer promoted = replica;
    killed.kill();
    awaitMasterAt(promoted);
    master = promoted;
    replica = killed;
    killed.start();
    replicate(killed, promoted);
    awaitSettled();
  }

  /**
   * Asks the sentinels for a failover ({@code SENTINEL FAILOVER}) while the master runs, and returns once every
   * sentinel names the replica as the master. The old master runs on as a master, and keeps the clients connected to
   * it, until Sentinel has seen it report that role for a while (about 4 s here, see the class comment): then it
   * turns it into the new master's replica and closes its clients' connections. {@link #awaitSettled()} waits for
   * that.
   *
   * @throws IllegalStateException if the sentinels did not promote the replica within 30 s
   */
  public void switchOver() {
    RedisServer promoted = replica;
    sentinels.get(0).command("SENTINEL", "FAILOVER", MASTER_NAME);
    awaitMasterAt(promoted);
    replica = master;
    master = promoted;
  }

  /**
   * Waits until the replica is in sync with the master and every sentinel names the master, sees the replica's link
   * to it up and sees the other sentinels.
   *
   * @throws IllegalStateException if that did not happen within 30 s; the message says what was missing
   */
  public void awaitSettled() {
    awaitNothingMissing("the set-up to settle", this::missingForSettled);
  }

  /** Stops the sentinels, then the servers. */
  @Override
  public void close() {
    sentinels.forEach(RedisSentinel::stop);
    sentinels.clear();
    master.stop();
    replica.stop();
  }

  @Override
  public String toString() {
    return "Redis master " + master + " with replica " + replica + " and sentinels " + sentinels;
  }

  /** Makes {@code replica} replicate {@code master}, which sends it a full copy at once rather than after 5 s. */
  private static void replicate(RedisServer replica, RedisServer master) {
    master.command("CONFIG", "SET", "repl-diskless-sync-delay", "0");
    replica.command("CONFIG", "SET", "repl-diskless-sync-delay", "0");
    replica.command("REPLICAOF", Loopback.HOST, Integer.toString(master.port()));
  }

  private void awaitMasterAt(RedisServer promoted) {
    awaitNothingMissing("the sentinels to promote " + promoted, () -> {
      if (!info(promoted).contains("role:master")) {
        return promoted + " is no master yet";
      }
      for (RedisSentinel sentinel : sentinels) {
        List<?> address = (List<?>) sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
        if (!String.valueOf(promoted.port()).equals(address.get(1))) {
          return sentinel + " names the master " + address;
        }
      }
      return null;
    });
  }

  /** What keeps the set-up from being settled, or null if nothing does. */
  private String missingForSettled() {
    followPromotion();
    RedisServer currentMaster = master;
    RedisServer currentReplica = replica;
    String port = Integer.toString(currentReplica.port());
    if (!info(currentMaster).contains("port=" + port + ",state=online")) {
      return "the master " + currentMaster + " has no replica on port " + port + " in sync";
    }
    for (RedisSentinel sentinel : sentinels) {
      Map<String, String> watched = fields(sentinel.command("SENTINEL", "MASTER", MASTER_NAME));
      if (!watched.get("port").equals(Integer.toString(currentMaster.port())) || !watched.get("flags").equals("master")
          || !watched.get("num-other-sentinels").equals(Integer.toString(SENTINELS - 1))) {
        return sentinel + " sees the master as " + watched;
      }
      List<Map<String, String>> replicas = ((List<?>) sentinel.command("SENTINEL", "REPLICAS", MASTER_NAME)).stream()
          .map(RedisSentinelSet::fields).toList();
      boolean seen = replicas.stream().anyMatch(seenReplica -> seenReplica.get("port").equals(port)
          && seenReplica.get("flags").equals("slave") && seenReplica.get("master-link-status").equals("ok"));
      if (!seen) {
        return sentinel + " sees no replica on port " + port + " with its link up: " + replicas;
      }
    }
    return null;
  }

  /**
   * Takes the replica for the master if the sentinels all name it: they may fail over on their own, as when a loaded
   * machine keeps the master from answering within the 1 s they allow it, and the set-up follows them as clients do.
   */
  private void followPromotion() {
    RedisServer promoted = replica;
    for (RedisSentinel sentinel : sentinels) {
      List<?> address = (List<?>) sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
      if (address == null || !String.valueOf(promoted.port()).equals(address.get(1))) {
        return;
      }
    }
    replica = master;
    master = promoted;
  }

  private static void awaitNothingMissing(String what, Supplier<String> missing) {
    Settling.awaitNothingMissing(what, SETTLE_TIMEOUT, missing);
  }

  private static String info(RedisServer server) {
    return (String) server.command("INFO", "replication");
  }

  /** A reply of alternating names and values, such as SENTINEL MASTER's, as a map. */
  private static Map<String, String> fields(Object reply) {
    List<?> list = (List<?>) reply;
    Map<String, String> fields = new HashMap<>();
    for (int i = 0; i + 1 < list.size(); i += 2) {
      fields.put(String.valueOf(list.get(i)), String.valueOf(list.get(i + 1)));
    }
    return fields;
  }
}
