package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import dev.baton.embedded.internal.Poll;
import dev.baton.embedded.internal.WorkDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Three real {@code etcd} processes forming one cluster on loopback, each with its own client and peer port and
 * data directory, for tests. See {@link EtcdMember} for the flags they run with: a lost leader is replaced
 * within about a second.
 *
 * <p>Members are numbered 0, 1 and 2 (named {@code m0}, {@code m1}, {@code m2}). A stopped or killed member keeps
 * its data directory and ports, so that {@link #start(int)} makes it rejoin as the same member; {@link #close()}
 * deletes everything, and the next {@link #start()} forms a new, empty cluster on the same ports. Start, stop and
 * kill from one thread at a time (the test's); the other methods may be called from any thread. Members still
 * running when the JVM exits are killed by a shutdown hook.
 */
public final class EtcdCluster implements AutoCloseable {
  /** How many members the cluster has. */
  public static final int SIZE = 3;
  /** How many members must serve for the cluster to accept writes. */
  public static final int QUORUM = SIZE / 2 + 1;

  private static final String NAME = "The etcd cluster";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
  private static final Duration POLL_INTERVAL = Duration.ofMillis(20);
  private static final int PORT_ATTEMPTS = 5;

  private final AtomicReferenceArray<EtcdProcess> processes = new AtomicReferenceArray<>(SIZE);
  private volatile List<EtcdMember> members = List.of();
  private volatile Path dir;
  private volatile String token;

  /** What one running member says of itself: its status, and whether it serves (a quorum read through it works). */
  private record Probe(int index, EtcdHttp.Status status, boolean healthy) {}

  /**
   * Starts the three members over empty data directories and returns once all three serve clients and agree on a
   * leader: on free ports the first time, on the same ports as before after a {@link #close()}.
   *
   * @throws IllegalStateException if a member is already running, if {@code etcd} is not installed (the message
   *     says how to install it), or the cluster did not form within 15 s (the message quotes the output of the
   *     member that failed); nothing is left running then
   */
  public void start() {
    if (IntStream.range(0, SIZE).anyMatch(this::isRunning)) {
      throw new IllegalStateException(NAME + " is already running; close() it first.");
    }
    close();
    Path binary = ServerBinary.ETCD.locate();
    boolean choosePorts = members.isEmpty();
    for (int attempt = 0; attempt < (choosePorts ? PORT_ATTEMPTS : 1); attempt++) {
      if (choosePorts) {
        members = newMembers();
      }
      try {
        if (startAll(binary)) {
          return;
        }
      } catch (RuntimeException e) {
        closeAfter(e);
        throw e;
      }
      close();
    }
    throw new IllegalStateException(choosePorts
        ? NAME + " found one of its ports taken each of " + PORT_ATTEMPTS
            + " times by the time it started; is something grabbing loopback ports?"
        : "Cannot start " + NAME + " again on ports " + ports() + ": another process has taken one of them.");
  }

  /**
   * Starts one stopped or killed member again, on its ports and over its data, so that it rejoins as the same
   * member. If a quorum runs with it, returns once it has caught up and serves clients; otherwise returns at once,
   * as it cannot serve alone.
   *
   * @throws IllegalStateException if the cluster was never started, the member already runs, its ports were
   *     taken, or it did not serve within 15 s
   */
  public void start(int member) {
    checkIndex(member);
    if (dir == null) {
      throw new IllegalStateException(NAME + " is not started; call start() before starting one member.");
    }
    if (isRunning(member)) {
      throw new IllegalStateException("Member " + member + " is already running; stop(" + member + ") it first.");
    }
    EtcdProcess exited = processes.getAndSet(member, null);
    if (exited != null) {
      exited.stop(STOP_TIMEOUT);
    }
    EtcdProcess started = launch(ServerBinary.ETCD.locate(), member);
    if (runningCount() >= QUORUM && !started.awaitReady(START_TIMEOUT)) {
      processes.set(member, null);
      throw new IllegalStateException("Cannot start member " + member + " again on ports "
          + members.get(member).clientPort() + " and " + members.get(member).peerPort()
          + ": another process has taken one of them.");
    }
  }

  /**
   * Stops one member (SIGTERM, then SIGKILL after 10 s) and returns once it is gone; its data directory stays. A
   * leader hands its leadership to another member before it exits. Does nothing if the member is not running.
   */
  public void stop(int member) {
    checkIndex(member);
    EtcdProcess stopping = processes.getAndSet(member, null);
    if (stopping != null) {
      stopping.stop(STOP_TIMEOUT);
    }
  }

  /**
   * Kills one member (SIGKILL) as a crash would, and returns once it is gone; its data directory stays. Does not
   * wait for the others to elect a new leader: see {@link #awaitLeader}. Does nothing if the member is not running.
   */
  public void kill(int member) {
    checkIndex(member);
    EtcdProcess killing = processes.getAndSet(member, null);
    if (killing != null) {
      killing.kill(STOP_TIMEOUT);
    }
  }

  /**
   * Kills the member that leads now, as {@link #kill(int)} does.
   *
   * @return the index of the member killed
   * @throws IllegalStateException if no member leads now
   */
  public int killLeader() {
    int leader = leaderIndex();
    kill(leader);
    return leader;
  }

  /**
   * The index of the member that leads now, by asking each running member for its status.
   *
   * @throws IllegalStateException if none does (an election is under way, or too few members run)
   */
  public int leaderIndex() {
    List<Probe> probes = probe(false);
    return probes.stream()
        .filter(probe -> probe.status() != null && probe.status().isLeader())
        .max((a, b) -> Long.compare(a.status().raftTerm(), b.status().raftTerm()))
        .map(Probe::index)
        .orElseThrow(() -> new IllegalStateException("No member leads now (" + describe(probes)
            + "); call awaitLeader(...) to wait for an election."));
  }

  /**
   * The highest raft term a running member reports: it grows by one with each election, so the difference between
   * two readings counts the elections in between (at least). etcd starts every lease's ttl afresh when a new leader
   * takes over, so that a crashed client's entries can outlive their lease by one ttl per election.
   *
   * @throws IllegalStateException if no running member answers
   */
  public long raftTerm() {
    return probe(false).stream()
        .filter(probe -> probe.status() != null)
        .mapToLong(probe -> probe.status().raftTerm())
        .max()
        .orElseThrow(() -> new IllegalStateException("No member of " + NAME + " answers its status."));
  }

  /**
   * Waits until a running member leads and a quorum of members (itself included) serves clients under it, as
   * after {@link #killLeader()}.
   *
   * @return the index of the leader
   * @throws IllegalStateException if that did not happen within {@code timeout}; the message gives each member's
   *     state
   */
  public int awaitLeader(Duration timeout) {
    return awaitServing(QUORUM, timeout, "a leader and a quorum of " + QUORUM + " members serving");
  }

  /** Whether the member's process is alive (it may be joining or electing rather than serving). */
  public boolean isRunning(int member) {
    checkIndex(member);
    EtcdProcess process = processes.get(member);
    return process != null && process.isAlive();
  }

  /** The pid of the member's running process. */
  public long pid(int member) {
    checkIndex(member);
    EtcdProcess process = processes.get(member);
    if (process == null) {
      throw new IllegalStateException("Member " + member + " is not running.");
    }
    return process.pid();
  }

  /** Every member's address for an etcd client: {@code http://127.0.0.1:C0,http://127.0.0.1:C1,http://127.0.0.1:C2}. */
  public String endpoints() {
    return started().stream().map(EtcdMember::clientUrl).collect(Collectors.joining(","));
  }

  /** One member's address only, {@code http://127.0.0.1:PORT}, to talk to that member alone. */
  public String endpoint(int member) {
    checkIndex(member);
    return started().get(member).clientUrl();
  }

  /** The loopback port on which the member serves clients; the same across stops and starts. */
  public int clientPort(int member) {
    checkIndex(member);
    return started().get(member).clientPort();
  }

  /** Every port of every member (client, peer), e.g. to check that none listens after {@link #close()}. */
  public List<Integer> ports() {
    return started().stream().flatMap(member -> Stream.of(member.clientPort(), member.peerPort())).toList();
  }

  /**
   * Stops every member as {@link #stop(int)} does and deletes the data directories. The ports stay reserved for a
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
    List<EtcdMember> current = members;
    return "EtcdCluster{" + (current.isEmpty() ? "never started" : endpoints() + ", running="
        + IntStream.range(0, SIZE).filter(this::isRunning).boxed().toList()) + '}';
  }

  /** Launches all three members, then waits until they serve; false if a port was taken. */
  private boolean startAll(Path binary) {
    dir = WorkDirs.create("baton-etcd-cluster-", NAME);
    token = "baton-etcd-" + UUID.randomUUID();
    List<EtcdProcess> started = IntStream.range(0, SIZE).mapToObj(i -> launch(binary, i)).toList();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    for (EtcdProcess process : started) {
      if (!process.awaitReady(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
        return false;
      }
    }
    awaitServing(SIZE, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())), "all " + SIZE
        + " members serving under one leader");
    return true;
  }

  private EtcdProcess launch(Path binary, int member) {
    EtcdMember self = members.get(member);
    EtcdProcess process = EtcdProcess.launch(self.command(binary, dir.resolve(self.name()), members, token), dir,
        "etcd-" + self.name() + "-" + self.clientPort());
    processes.set(member, process);
    return process;
  }

  private int awaitServing(int wanted, Duration timeout, String what) {
    return Poll.until(timeout, POLL_INTERVAL, () -> servedLeader(probe(true), wanted), OptionalInt::isPresent)
        .orElseThrow(() -> new IllegalStateException(NAME + " did not reach " + what + " within "
            + timeout.toMillis() + " ms: " + describe(probe(false)) + "."))
        .getAsInt();
  }

  /** The running member that leads, if at least {@code wanted} members (itself included) serve under it. */
  private static OptionalInt servedLeader(List<Probe> probes, int wanted) {
    for (Probe leader : probes) {
      if (leader.status() == null || !leader.status().isLeader() || !leader.healthy()) {
        continue;
      }
      long serving = probes.stream()
          .filter(probe -> probe.healthy() && probe.status() != null
              && probe.status().leaderId().equals(leader.status().memberId()))
          .count();
      if (serving >= wanted) {
        return OptionalInt.of(leader.index());
      }
    }
    return OptionalInt.empty();
  }

  /** Asks each running member for its status (and, if {@code health}, whether it serves); stopped ones are left out. */
  private List<Probe> probe(boolean health) {
    List<EtcdMember> current = started();
    List<Probe> probes = new ArrayList<>(SIZE);
    for (int i = 0; i < SIZE; i++) {
      if (!isRunning(i)) {
        continue;
      }
      int port = current.get(i).clientPort();
      EtcdHttp.Status status = statusOf(port).orElse(null);
      probes.add(new Probe(i, status, health && status != null && EtcdHttp.isHealthy(port, PROBE_TIMEOUT)));
    }
    return probes;
  }

  private static Optional<EtcdHttp.Status> statusOf(int port) {
    try {
      return Optional.of(EtcdHttp.status(port, PROBE_TIMEOUT));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private String describe(List<Probe> probes) {
    List<EtcdMember> current = members;
    return IntStream.range(0, SIZE)
        .mapToObj(i -> {
          String prefix = "member " + i + " (" + current.get(i).clientUrl() + "): ";
          Optional<Probe> probe = probes.stream().filter(p -> p.index() == i).findFirst();
          if (probe.isEmpty()) {
            return prefix + "stopped";
          }
          EtcdHttp.Status status = probe.get().status();
          return prefix + (status == null ? "not answering" : "id " + status.memberId() + ", leader "
              + status.leaderId() + ", term " + status.raftTerm() + (probe.get().healthy() ? ", serving" : ""));
        })
        .collect(Collectors.joining("; "));
  }

  private long runningCount() {
    return IntStream.range(0, SIZE).filter(this::isRunning).count();
  }

  private List<EtcdMember> newMembers() {
    int[] ports = Loopback.freePorts(2 * SIZE);
    return IntStream.range(0, SIZE).mapToObj(i -> new EtcdMember("m" + i, ports[2 * i], ports[2 * i + 1], null)).toList();
  }

  private List<EtcdMember> started() {
    List<EtcdMember> current = members;
    if (current.isEmpty()) {
      throw new IllegalStateException(NAME + " has not been started yet; call start() first.");
    }
    return current;
  }

  private void closeAfter(RuntimeException failure) {
    try {
      close();
    } catch (RuntimeException cleanup) {
      failure.addSuppressed(cleanup);
    }
  }

  private static void checkIndex(int member) {
    if (member < 0 || member >= SIZE) {
      throw new IllegalArgumentException("There is no member " + member + "; members are numbered 0 to "
          + (SIZE - 1) + ".");
    }
  }
}
