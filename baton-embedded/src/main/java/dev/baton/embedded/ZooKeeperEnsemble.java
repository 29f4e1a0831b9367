package dev.baton.embedded;

import dev.baton.embedded.internal.Loopback;
import dev.baton.embedded.internal.Poll;
import dev.baton.embedded.internal.WorkDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;

/**
 * Three ZooKeeper servers forming one ensemble inside the test JVM, from the ZooKeeper jar, each with its own
 * loopback ports (client, quorum, election) and temporary data directory, and the clock of
 * {@link EmbeddedZooKeeper}: a tick of 100 ms, sessions from 200 ms to 10 s.
 *
 * <p>Peers are numbered 0, 1 and 2 (their ZooKeeper server ids are 1, 2 and 3). A stopped peer keeps its data
 * directory and ports, so that {@link #start(int)} makes it rejoin as the same member; {@link #close()} deletes
 * everything. Start, stop and kill from one thread at a time (the test's); the other methods may be called from
 * any thread.
 */
public final class ZooKeeperEnsemble implements AutoCloseable {
  /** How many peers the ensemble has. */
  public static final int SIZE = 3;
  /** How many peers must serve for the ensemble to accept writes. */
  public static final int QUORUM = SIZE / 2 + 1;

  private static final String NAME = "The ZooKeeper ensemble";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration PEER_START_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration POLL_INTERVAL = Duration.ofMillis(20);
  private static final int INIT_LIMIT_TICKS = 10;
  private static final int SYNC_LIMIT_TICKS = 5;

  private final AtomicReferenceArray<QuorumPeerRunner> runners = new AtomicReferenceArray<>(SIZE);
  private volatile List<Member> members = List.of();
  private volatile Path dir;

  /** The ports of one peer; they stay the same for the life of the ensemble object. */
  private record Member(int index, int clientPort, int quorumPort, int electionPort) {
    int serverId() {
      return index + 1;
    }
  }

  /**
   * Starts the three peers with empty data directories and returns once they have elected a leader and all three
   * serve clients: on free ports the first time, on the same ports as before after a {@link #close()}.
   *
   * @throws IllegalStateException if a peer is already running, or the ensemble did not form within 30 s (the
   *     message gives each peer's state); nothing is left running then
   */
  public void start() {
    if (IntStream.range(0, SIZE).anyMatch(this::isRunning)) {
      throw new IllegalStateException(NAME + " is already running; close() it first.");
    }
    close();
    if (members.isEmpty()) {
      int[] ports = Loopback.freePorts(3 * SIZE);
      members = IntStream.range(0, SIZE)
          .mapToObj(i -> new Member(i, ports[3 * i], ports[3 * i + 1], ports[3 * i + 2]))
          .toList();
    }
    dir = WorkDirs.create("baton-zookeeper-ensemble-", NAME);
    try {
      for (int i = 0; i < SIZE; i++) {
        createDataDir(i);
        launch(i);
      }
      awaitServing(SIZE, START_TIMEOUT, "a leader elected and all " + SIZE + " peers serving");
    } catch (RuntimeException e) {
      try {
        close();
      } catch (RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  /**
   * Starts one stopped peer again, on its ports and over its data. If a quorum runs with it, returns once it has
   * caught up with the leader and serves clients; otherwise returns at once, as it cannot serve alone.
   *
   * @throws IllegalStateException if the ensemble was never started, the peer already runs, or it did not serve
   *     within 30 s
   */
  public void start(int peer) {
    checkIndex(peer);
    if (dir == null) {
      throw new IllegalStateException(NAME + " is not started; call start() before starting one peer.");
    }
    if (isRunning(peer)) {
      throw new IllegalStateException("Peer " + peer + " is already running; stop(" + peer + ") it first.");
    }
    launch(peer);
    if (runningCount() >= QUORUM) {
      awaitUntil("peer " + peer + " serving", START_TIMEOUT, () -> isServing(peer), Boolean::booleanValue);
    }
  }

  /**
   * Stops one peer and returns once its ports are closed and its threads have ended; its data directory stays.
   * Does not wait for the others to elect a new leader: see {@link #awaitLeader}. Does nothing if the peer is
   * stopped.
   */
  public void stop(int peer) {
    checkIndex(peer);
    QuorumPeerRunner runner = runners.getAndSet(peer, null);
    if (runner != null) {
      runner.stop(STOP_TIMEOUT);
    }
  }

  /**
   * Stops the peer that leads now, as {@link #stop(int)} does.
   *
   * @return the index of the peer stopped
   * @throws IllegalStateException if no peer leads now
   */
  public int killLeader() {
    int leader = leaderIndex();
    stop(leader);
    return leader;
  }

  /**
   * The index of the peer that leads now.
   *
   * @throws IllegalStateException if none does (an election is under way, or too few peers run)
   */
  public int leaderIndex() {
    return IntStream.range(0, SIZE)
        .filter(i -> runners.get(i) != null && runners.get(i).isLeading())
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("No peer leads now (" + describePeers()
            + "); call awaitLeader(...) to wait for an election."));
  }

  /**
   * Waits until a leader is elected and a quorum of peers (itself included) serves clients, as after
   * {@link #killLeader()}.
   *
   * @return the index of the leader
   * @throws IllegalStateException if that did not happen within {@code timeout}; the message gives each peer's
   *     state
   */
  public int awaitLeader(Duration timeout) {
    return awaitServing(QUORUM, timeout, "a leader elected and a quorum of " + QUORUM + " peers serving");
  }

  /** Whether the peer runs (it may be electing or syncing rather than serving). */
  public boolean isRunning(int peer) {
    checkIndex(peer);
    return runners.get(peer) != null;
  }

  /** The loopback port on which the peer serves clients; it stays the same across stops and starts. */
  public int clientPort(int peer) {
    checkIndex(peer);
    return started().get(peer).clientPort();
  }

  /** The address of every peer for a ZooKeeper client: {@code 127.0.0.1:P0,127.0.0.1:P1,127.0.0.1:P2}. */
  public String connectString() {
    return started().stream()
        .map(member -> Loopback.HOST + ":" + member.clientPort())
        .collect(Collectors.joining(","));
  }

  /** The address of one peer only, {@code 127.0.0.1:PORT}, to talk to that peer alone. */
  public String connectString(int peer) {
    return Loopback.HOST + ":" + clientPort(peer);
  }

  /** Every port of every peer (client, quorum, election), e.g. to check that none listens after {@link #close()}. */
  public List<Integer> ports() {
    return started().stream()
        .flatMap(member -> Stream.of(member.clientPort(), member.quorumPort(), member.electionPort()))
        .toList();
  }

  /**
   * Stops every peer as {@link #stop(int)} does and deletes the data directories. The ports stay reserved for a
   * later {@link #start()}.
   */
  @Override
  public void close() {
    List<RuntimeException> failures = new ArrayList<>();
    for (int i = 0; i < SIZE; i++) {
      try {
        stop(i);
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    Path stopped = dir;
    dir = null;
    if (stopped != null && failures.isEmpty()) {
      WorkDirs.delete(stopped, NAME);
    }
    if (!failures.isEmpty()) {
      IllegalStateException failure = new IllegalStateException(NAME + " did not stop cleanly; its data stays in "
          + stopped, failures.get(0));
      failures.stream().skip(1).forEach(failure::addSuppressed);
      throw failure;
    }
  }

  @Override
  public String toString() {
    return "ZooKeeperEnsemble{" + (members.isEmpty() ? "never started" : describePeers()) + '}';
  }

  private void launch(int peer) {
    runners.set(peer, QuorumPeerRunner.start(config(peer), "baton-zookeeper-peer-" + peer, PEER_START_TIMEOUT));
  }

  private int awaitServing(int wanted, Duration timeout, String what) {
    return awaitUntil(what, timeout, () -> servedLeader(wanted), OptionalInt::isPresent).getAsInt();
  }

  private <T> T awaitUntil(String what, Duration timeout, Callable<T> probe, Predicate<? super T> done) {
    return Poll.until(timeout, POLL_INTERVAL, probe, done).orElseThrow(() -> new IllegalStateException(
        NAME + " did not reach " + what + " within " + timeout.toMillis() + " ms: " + describePeers() + "."));
  }

  /** The leader, if it serves and at least {@code wanted} peers (itself included) serve it. */
  private OptionalInt servedLeader(int wanted) {
    for (int leader = 0; leader < SIZE; leader++) {
      QuorumPeerRunner candidate = runners.get(leader);
      if (candidate == null || !candidate.isLeading() || !candidate.isServing()) {
        continue;
      }
      long leaderId = members.get(leader).serverId();
      long serving = IntStream.range(0, SIZE)
          .mapToObj(runners::get)
          .filter(runner -> runner != null && runner.isServing() && runner.votedLeaderId() == leaderId)
          .count();
      if (serving >= wanted) {
        return OptionalInt.of(leader);
      }
    }
    return OptionalInt.empty();
  }

  private boolean isServing(int peer) {
    QuorumPeerRunner runner = runners.get(peer);
    return runner != null && runner.isServing() && servedLeader(QUORUM).isPresent();
  }

  private long runningCount() {
    return IntStream.range(0, SIZE).filter(this::isRunning).count();
  }

  private String describePeers() {
    List<Member> current = members;
    return IntStream.range(0, SIZE)
        .mapToObj(i -> {
          QuorumPeerRunner runner = runners.get(i);
          String port = current.isEmpty() ? "" : " (client port " + current.get(i).clientPort() + ")";
          return "peer " + i + port + ": " + (runner == null ? "stopped" : runner.describe());
        })
        .collect(Collectors.joining("; "));
  }

  private List<Member> started() {
    List<Member> current = members;
    if (current.isEmpty()) {
      throw new IllegalStateException(NAME + " has not been started yet; call start() first.");
    }
    return current;
  }

  private Path dataDir(int peer) {
    return dir.resolve("peer-" + peer);
  }

  private void createDataDir(int peer) {
    try {
      Files.createDirectories(dataDir(peer));
      Files.writeString(dataDir(peer).resolve("myid"), Integer.toString(members.get(peer).serverId()),
          StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not create the data directory of peer " + peer + " in " + dir, e);
    }
  }

  private QuorumPeerConfig config(int peer) {
    Member member = members.get(peer);
    Properties properties = new Properties();
    properties.setProperty("tickTime", Long.toString(EmbeddedZooKeeper.TICK_TIME.toMillis()));
    properties.setProperty("initLimit", Integer.toString(INIT_LIMIT_TICKS));
    properties.setProperty("syncLimit", Integer.toString(SYNC_LIMIT_TICKS));
    properties.setProperty("minSessionTimeout", Long.toString(EmbeddedZooKeeper.MIN_SESSION_TIMEOUT.toMillis()));
    properties.setProperty("maxSessionTimeout", Long.toString(EmbeddedZooKeeper.MAX_SESSION_TIMEOUT.toMillis()));
    properties.setProperty("maxClientCnxns", "0");
    properties.setProperty("dataDir", dataDir(peer).toString());
    properties.setProperty("clientPortAddress", Loopback.HOST);
    properties.setProperty("clientPort", Integer.toString(member.clientPort()));
    for (Member other : members) {
      properties.setProperty("server." + other.serverId(),
          Loopback.HOST + ":" + other.quorumPort() + ":" + other.electionPort());
    }
    QuorumPeerConfig config = new QuorumPeerConfig();
    try {
      config.parseProperties(properties);
    } catch (IOException | QuorumPeerConfig.ConfigException e) {
      throw new IllegalStateException("ZooKeeper rejected the configuration of peer " + peer + ": " + properties, e);
    }
    return config;
  }

  private static void checkIndex(int peer) {
    if (peer < 0 || peer >= SIZE) {
      throw new IllegalArgumentException("There is no peer " + peer + "; peers are numbered 0 to " + (SIZE - 1) + ".");
    }
  }
}
