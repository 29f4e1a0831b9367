package dev.baton.embedded;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.zookeeper.server.ContainerManager;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.quorum.QuorumPeer;
import org.apache.zookeeper.server.quorum.QuorumPeer.ServerState;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;

/**
 * One life of one {@link ZooKeeperEnsemble} member: a {@link QuorumPeer} wired exactly as
 * {@link QuorumPeerMain#runFromConfig} wires it, run on a daemon thread of its own, from start to stop.
 *
 * <p>That thread runs in a thread group of its own, which every thread the peer starts joins, so that
 * {@link #stop} can find the threads ZooKeeper's shutdown forgets: the leader-election workers, which notice only
 * after their next 3 s poll, and the sender of a follower handler that was never shut down. It interrupts them.
 */
final class QuorumPeerRunner {
  private static final Duration LEFTOVER_TIMEOUT = Duration.ofSeconds(5);

  private final String name;
  private final ThreadGroup threads;
  private final Thread thread;
  private final CompletableFuture<QuorumPeer> started = new CompletableFuture<>();
  private final CompletableFuture<Void> ended = new CompletableFuture<>();

  /** QuorumPeerMain, telling when its peer has started (elected or not) so that it can be stopped cleanly. */
  private final class Main extends QuorumPeerMain {
    @Override
    protected QuorumPeer getQuorumPeer() throws javax.security.sasl.SaslException {
      return new QuorumPeer() {
        @Override
        public synchronized void start() {
          super.start();
          started.complete(this);
        }
      };
    }
  }

  private QuorumPeerRunner(QuorumPeerConfig config, String name) {
    this.name = name;
    this.threads = new ThreadGroup(name);
    this.thread = new Thread(threads, () -> run(config), name);
    thread.setDaemon(true);
  }

  /**
   * Starts a peer and returns once it runs: its ports are open and it looks for a leader.
   *
   * @param name the name of the runner's thread, and of the peer in error messages
   * @throws IllegalStateException if it failed to start, or had not started within {@code timeout}
   */
  static QuorumPeerRunner start(QuorumPeerConfig config, String name, Duration timeout) {
    InProcessZooKeeper.prepareJvm();
    QuorumPeerRunner runner = new QuorumPeerRunner(config, name);
    runner.thread.start();
    try {
      CompletableFuture.anyOf(runner.started, runner.ended).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      runner.stop(timeout);
      throw new IllegalStateException(name + " failed to start: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      runner.stop(timeout);
      throw new IllegalStateException(name + " had not started within " + timeout.toMillis() + " ms.", e);
    } catch (InterruptedException e) {
      runner.stop(timeout);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while " + name + " was starting", e);
    }
    if (!runner.started.isDone()) {
      throw new IllegalStateException(name + " ended as soon as it started; see ZooKeeper's log above.");
    }
    return runner;
  }

  /** Whether the peer leads the ensemble (it may not serve clients yet). */
  boolean isLeading() {
    return peer().map(peer -> peer.isRunning() && peer.getPeerState() == ServerState.LEADING).orElse(false);
  }

  /** Whether the peer leads or follows, and serves clients: it is in sync with its leader. */
  boolean isServing() {
    Optional<QuorumPeer> peer = peer().filter(QuorumPeer::isRunning);
    if (peer.isEmpty()) {
      return false;
    }
    ServerState state = peer.get().getPeerState();
    ZooKeeperServer server = peer.get().getActiveServer();
    return (state == ServerState.LEADING || state == ServerState.FOLLOWING) && server != null && server.isRunning();
  }

  /** The server id of the leader the peer voted for last; its own id while it leads. */
  long votedLeaderId() {
    return peer().map(peer -> peer.getCurrentVote().getId()).orElse(-1L);
  }

  /** The peer's state in a few words, for error messages: {@code FOLLOWING 2, serving}. */
  String describe() {
    if (ended.isDone()) {
      return "ended" + (ended.isCompletedExceptionally() ? " with " + ended.handle((ok, e) -> e).join() : "");
    }
    Optional<QuorumPeer> peer = peer();
    if (peer.isEmpty()) {
      return "starting";
    }
    ServerState state = peer.get().getPeerState();
    String leader = state == ServerState.FOLLOWING ? " " + votedLeaderId() : "";
    return state + leader + (isServing() ? ", serving" : ", not serving");
  }

  /**
   * Shuts the peer down (its client, quorum and election ports close) and waits for its threads to end,
   * interrupting those that outlive the peer. Its data directory stays, for the next life.
   *
   * @throws IllegalStateException if the peer still ran after {@code timeout}; the message has its stack
   */
  void stop(Duration timeout) {
    peer().ifPresent(QuorumPeerRunner::shutDown);
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean interrupted = false;
    while (isAlive() && System.nanoTime() < deadline) {
      try {
        Thread alive = thread.isAlive() ? thread : peer().orElseThrow();
        alive.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (isAlive()) {
      Thread stuck = peer().filter(Thread::isAlive).map(Thread.class::cast).orElse(thread);
      throw new IllegalStateException(name + " still ran " + timeout.toMillis() + " ms after shutdown; thread "
          + stuck.getName() + " is at:\n" + Arrays.stream(stuck.getStackTrace())
              .map(frame -> "  at " + frame)
              .collect(Collectors.joining("\n")));
    }
    endLeftovers();
  }

  /**
   * Interrupts the threads of the peer that still run once it has stopped, and waits (up to 5 s) for them to end.
   * One kind may stay: the idle {@code ContainerManagerTask} timer of a leader that stepped down without being
   * stopped, which ignores interrupts and which the test kit cannot reach.
   */
  private void endLeftovers() {
    Thread[] leftovers = new Thread[threads.activeCount() + 8];
    int count = threads.enumerate(leftovers);
    long deadline = System.nanoTime() + LEFTOVER_TIMEOUT.toNanos();
    boolean interrupted = false;
    for (int i = 0; i < count; i++) {
      leftovers[i].interrupt();
    }
    for (int i = 0; i < count; i++) {
      while (leftovers[i].isAlive() && System.nanoTime() < deadline) {
        try {
          leftovers[i].join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private boolean isAlive() {
    return thread.isAlive() || peer().map(Thread::isAlive).orElse(false);
  }

  private Optional<QuorumPeer> peer() {
    return Optional.ofNullable(started.getNow(null));
  }

  private static void shutDown(QuorumPeer peer) {
    Optional<ContainerManager> containers = InProcessZooKeeper.containerManagerOf(peer.getActiveServer());
    peer.shutdown();
    containers.ifPresent(InProcessZooKeeper::stopContainerManager);
  }

  private void run(QuorumPeerConfig config) {
    try {
      new Main().runFromConfig(config);
      ended.complete(null);
    } catch (Throwable t) {
      ended.completeExceptionally(t);
    }
  }
}
