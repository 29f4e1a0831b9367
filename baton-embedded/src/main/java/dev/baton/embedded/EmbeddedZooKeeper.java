package dev.baton.embedded;

import dev.baton.embedded.internal.Loopback;
import dev.baton.embedded.internal.Poll;
import dev.baton.embedded.internal.WorkDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.server.ContainerManager;
import org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.zookeeper.server.RequestProcessor;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZKDatabase;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;

/**
 * A standalone ZooKeeper server running inside the test JVM, from the ZooKeeper jar, on a free loopback port
 * with its own temporary data directory.
 *
 * <p>Its clock is fast, so that session tests take milliseconds: a tick of {@link #TICK_TIME 100 ms}, sessions
 * from {@link #MIN_SESSION_TIMEOUT 200 ms} to {@link #MAX_SESSION_TIMEOUT 10 s}. Clients may open any number of
 * connections. Container nodes are checked as by a real server, every
 * {@code znode.container.checkIntervalMs} (a system property, 60 s unless set).
 *
 * <p>{@link #start()}, {@link #stop()} and {@link #restart()} are meant for one thread at a time (the test's);
 * the other methods may be called from any thread.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
  /** One tick of the server's clock, the unit of its session expiry checks. */
  public static final Duration TICK_TIME = Duration.ofMillis(100);
  /** The shortest session timeout the server grants; a client asking for less gets this. */
  public static final Duration MIN_SESSION_TIMEOUT = Duration.ofMillis(200);
  /** The longest session timeout the server grants; a client asking for more gets this. */
  public static final Duration MAX_SESSION_TIMEOUT = Duration.ofSeconds(10);

  private static final String NAME = "ZooKeeper";
  private static final int PORT_ATTEMPTS = 5;
  private static final int UNLIMITED_CONNECTIONS = 0;
  private static final int DEFAULT_BACKLOG = -1;
  private static final Duration SESSION_GONE_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration THREAD_STOP_TIMEOUT = Duration.ofSeconds(10);

  private final Path keptDir;
  private volatile int port;
  private volatile Run run;

  /** A server on a free port, over a temporary data directory deleted when it stops. */
  public EmbeddedZooKeeper() {
    this.keptDir = null;
  }

  /**
   * A server on {@code port} over {@code dataDir}, which is created if missing and kept when it stops, so that
   * its nodes outlive the process; with a null {@code dataDir}, over a temporary one deleted when it stops.
   */
  public EmbeddedZooKeeper(int port, Path dataDir) {
    if (port <= 0 || port > 65_535) {
      throw new IllegalArgumentException("The port must be between 1 and 65535 but was " + port + ".");
    }
    this.port = port;
    this.keptDir = dataDir;
  }

  /** One life of the server, from start to stop; the data directory outlives a restart. */
  private record Run(
      Path dir, FileTxnSnapLog log, Server server, ServerCnxnFactory connections, ContainerManager containers) {}

  /** A ZooKeeperServer that lets the test kit reach its first request processor, to run a container manager. */
  private static final class Server extends ZooKeeperServer {
    Server(FileTxnSnapLog log, int tickTime, int minSessionTimeout, int maxSessionTimeout) {
      super(log, tickTime, minSessionTimeout, maxSessionTimeout, DEFAULT_BACKLOG, new ZKDatabase(log), "");
    }

    RequestProcessor firstProcessor() {
      return firstProcessor;
    }
  }

  /**
   * Starts the server with an empty data directory and returns once it accepts connections: on a free port the
   * first time, on the same port as before after a {@link #stop()}.
   *
   * @throws IllegalStateException if it is already running, or if the port it had before is taken now
   */
  public void start() {
    if (isRunning()) {
      throw new IllegalStateException(NAME + " is already running on port " + port + "; stop() it first.");
    }
    stop();
    Path dir = keptDir != null ? WorkDirs.createIfMissing(keptDir, NAME) : WorkDirs.create("baton-zookeeper-", NAME);
    try {
      if (port != 0) {
        run = launch(dir, port).orElseThrow(() -> new IllegalStateException(
            "Cannot start " + NAME + " on port " + port + ": another process has taken the port."));
        return;
      }
      for (int attempt = 0; attempt < PORT_ATTEMPTS && run == null; attempt++) {
        int candidate = Loopback.freePort();
        Optional<Run> started = launch(dir, candidate);
        if (started.isPresent()) {
          port = candidate;
          run = started.get();
        }
      }
    } finally {
      if (run == null) {
        deleteUnlessKept(dir);
      }
    }
    if (run == null) {
      throw new IllegalStateException(NAME + " found each of " + PORT_ATTEMPTS
          + " free ports taken by the time it started; is something grabbing loopback ports?");
    }
  }

  /**
   * Stops the server, closing every client connection, and deletes its data directory. Returns once the port
   * is closed and the server's request threads have ended. Does nothing if it is not running.
   */
  public void stop() {
    Run stopping = run;
    if (stopping != null) {
      run = null;
      shutDown(stopping);
      deleteUnlessKept(stopping.dir());
    }
  }

  private void deleteUnlessKept(Path dir) {
    if (keptDir == null) {
      WorkDirs.delete(dir, NAME);
    }
  }

  /**
   * Stops the server and starts it again on the same port with the same data: nodes, and sessions whose
   * clients reconnect within their timeout, survive. Clients see their connection drop and come back. Starts
   * the server if it is not running.
   *
   * @throws IllegalStateException if another process took the port in between
   */
  public void restart() {
    Run stopping = run;
    if (stopping == null) {
      start();
      return;
    }
    run = null;
    boolean restarted = false;
    try {
      shutDown(stopping);
      run = launch(stopping.dir(), port).orElseThrow(() -> new IllegalStateException(
          "Cannot restart " + NAME + " on port " + port + ": another process took the port while it was down."));
      restarted = true;
    } finally {
      if (!restarted) {
        deleteUnlessKept(stopping.dir());
      }
    }
  }

  /** Whether the server runs and serves clients. */
  public boolean isRunning() {
    Run current = run;
    return current != null && current.server().isRunning();
  }

  /** The loopback port the server listens on; it stays the same across restarts. */
  public int port() {
    int current = port;
    if (current == 0) {
      throw new IllegalStateException(NAME + " has not been started yet; call start() first.");
    }
    return current;
  }

  /** The address to give a ZooKeeper client: {@code 127.0.0.1:PORT}. */
  public String connectString() {
    return Loopback.HOST + ":" + port();
  }

  /** The ids of the sessions the server holds now, as {@code ZooKeeper.getSessionId()} reports them. */
  public Set<Long> sessionIds() {
    return Set.copyOf(running().server().getSessionTracker().globalSessions());
  }

  /**
   * Expires a session now, as the server does when a client is silent for longer than its timeout, and returns
   * once the session and its ephemeral nodes are gone. The client's connection is closed; it sees
   * {@code Disconnected}, then {@code Expired} when it reconnects, which it does at once.
   *
   * @param sessionId the client's {@code ZooKeeper.getSessionId()}
   * @throws IllegalArgumentException if the server holds no such session (it may have expired already)
   * @throws IllegalStateException if the server is not running, or the session was not gone within 5 s
   */
  public void expireSession(long sessionId) {
    Server server = running().server();
    String session = "0x" + Long.toHexString(sessionId);
    if (!server.getSessionTracker().isTrackingSession(sessionId)) {
      throw new IllegalArgumentException(NAME + " on port " + port + " holds no session " + session
          + "; it may have expired or been closed already. Pass the client's getSessionId().");
    }
    server.expire(sessionId);
    Poll.until(SESSION_GONE_TIMEOUT, Duration.ofMillis(5), () -> server.getSessionTracker().isTrackingSession(sessionId),
        tracked -> !tracked).orElseThrow(() -> new IllegalStateException(NAME + " on port " + port + " still holds session "
            + session + " " + SESSION_GONE_TIMEOUT.toSeconds() + " s after expiring it."));
  }

  /**
   * The data watches (set by {@code getData} or {@code exists} on an existing node) on the children of
   * {@code parent}: each watched node's path and how many sessions watch it. Tells a queue in which each
   * waiter watches its predecessor from one in which everyone watches the same node.
   */
  public Map<String, Integer> dataWatches(String parent) {
    Map<String, Integer> watches = new TreeMap<>();
    running().server().getZKDatabase().getDataTree().getWatchesByPath().toMap().forEach((path, sessions) -> {
      if (path.startsWith(parent + "/") && path.indexOf('/', parent.length() + 1) < 0) {
        watches.put(path, sessions.size());
      }
    });
    return watches;
  }

  /** How many nodes the server holds now, its own ({@code /zookeeper}...) included. */
  public int nodeCount() {
    return running().server().getZKDatabase().getDataTree().getNodeCount();
  }

  /** How many watches the server keeps now for its sessions, data and child watches together. */
  public int watchCount() {
    return running().server().getZKDatabase().getDataTree().getWatchCount();
  }

  /** Same as {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }

  @Override
  public String toString() {
    return "EmbeddedZooKeeper{port=" + port + ", running=" + isRunning() + '}';
  }

  private Run running() {
    Run current = run;
    if (current == null) {
      throw new IllegalStateException(NAME + " is not running; call start() first.");
    }
    return current;
  }

  /** Starts a server on {@code candidate} over the data in {@code dir}; empty if the port turned out to be taken. */
  private static Optional<Run> launch(Path dir, int candidate) {
    InProcessZooKeeper.prepareJvm();
    FileTxnSnapLog log = null;
    ServerCnxnFactory connections = null;
    try {
      log = new FileTxnSnapLog(dir.toFile(), dir.toFile());
      Server server = new Server(log, millis(TICK_TIME), millis(MIN_SESSION_TIMEOUT), millis(MAX_SESSION_TIMEOUT));
      connections = new NIOServerCnxnFactory();
      connections.configure(
          new InetSocketAddress(Loopback.HOST, candidate), UNLIMITED_CONNECTIONS, DEFAULT_BACKLOG, false);
      connections.startup(server);
      ContainerManager containers = new ContainerManager(server.getZKDatabase(), server.firstProcessor(),
          Integer.getInteger("znode.container.checkIntervalMs", (int) TimeUnit.MINUTES.toMillis(1)),
          Integer.getInteger("znode.container.maxPerMinute", 10000),
          Long.getLong("znode.container.maxNeverUsedIntervalMs", 0));
      containers.start();
      return Optional.of(new Run(dir, log, server, connections, containers));
    } catch (BindException taken) {
      abandon(log, connections);
      return Optional.empty();
    } catch (IOException e) {
      abandon(log, connections);
      throw new UncheckedIOException("Could not start " + NAME + " on port " + candidate + " over " + dir + ": "
          + e.getMessage(), e);
    } catch (InterruptedException e) {
      abandon(log, connections);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while " + NAME + " was starting on port " + candidate, e);
    }
  }

  /** Stops everything of one run except its data directory, the way ZooKeeperServerMain shuts down. */
  private static void shutDown(Run stopping) {
    InProcessZooKeeper.stopContainerManager(stopping.containers());
    stopping.connections().shutdown();
    stopping.server().shutdown(true);
    closeQuietly(stopping.log());
    awaitEnd(stopping.server().getSessionTracker());
  }

  /** The session tracker ends within a tick of the shutdown; waiting for it makes stop() leave nothing behind. */
  private static void awaitEnd(Object sessionTracker) {
    if (!(sessionTracker instanceof Thread thread)) {
      return;
    }
    boolean interrupted = false;
    long deadline = System.nanoTime() + THREAD_STOP_TIMEOUT.toNanos();
    while (thread.isAlive() && System.nanoTime() < deadline) {
      try {
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static void abandon(FileTxnSnapLog log, ServerCnxnFactory connections) {
    if (connections != null) {
      connections.shutdown();
    }
    closeQuietly(log);
  }

  private static void closeQuietly(FileTxnSnapLog log) {
    if (log == null) {
      return;
    }
    try {
      log.close();
    } catch (IOException e) {
      // The directory is deleted or reused next; an unclosed log file only delays that.
    }
  }

  private static int millis(Duration duration) {
    return Math.toIntExact(duration.toMillis());
  }
}
