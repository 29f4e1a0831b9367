package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import dev.baton.embedded.internal.WorkDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A real MariaDB server on a free loopback port, for tests: a new data directory made by {@code mariadb-install-db}
 * in a temporary directory, with its own socket and pid file, without durable commits ({@link MariaDbInstall}), whose
 * user {@value #USER} logs in over TCP with the password {@value #PASSWORD} and owns the database {@value #DATABASE}.
 * It is stopped by its own pid and deleted with its data. Debian's {@code mariadb-server} package provides the
 * executables ({@link MariaDbBinaries}); when the tests run as root the server runs as root too
 * ({@code --user=root}), which MariaDB allows when told.
 *
 * <p>{@link #start()} and {@link #stop()} are meant for one thread at a time (the test's); the other methods may be
 * called from any thread. A server still running when the JVM exits is killed by a shutdown hook.
 */
public final class MariaDbServer {
  /** The user the tests log in as, with every privilege. */
  public static final String USER = "baton";
  /** That user's password. */
  public static final String PASSWORD = "baton-test-password";
  /** The database the tests use. */
  public static final String DATABASE = "baton";

  private static final String NAME = "MariaDB";
  private static final String HOST = Loopback.HOST;
  private static final String READY = "ready for connections";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  private volatile int port;
  private volatile ServerRun run;

  /**
   * Makes a new data directory and starts the server on a free port, returning once it accepts connections.
   *
   * @throws IllegalStateException if it is already running, if MariaDB is not installed (the message says how to
   *     install it), or if {@code mariadb-install-db} failed or the server did not become ready (the message quotes
   *     its output)
   */
  public void start() {
    if (isRunning()) {
      throw new IllegalStateException("MariaDB is already running on port " + port + "; stop() it first.");
    }
    stop();
    MariaDbBinaries.Found binaries = MariaDbBinaries.locate();
    ServerRun.OnPort started = ServerRun.onFreePort(NAME,
        () -> MariaDbInstall.newDataDir(binaries, "baton-mariadb-", NAME),
        (dir, candidate) -> launch(binaries, dir, candidate));
    port = started.port();
    run = started.run();
  }

  /**
   * Stops the server by its pid (SIGTERM, a clean shutdown, then SIGKILL after 10 s), waits until it is gone and
   * deletes its data. Does nothing if it is not running.
   */
  public void stop() {
    ServerRun stopping = run;
    if (stopping != null) {
      run = null;
      shutDown(stopping);
      WorkDirs.delete(stopping.dir(), NAME);
    }
  }

  /**
   * Stops the server (a clean shutdown, which keeps every committed row) and starts it again on the same port and
   * data: rows survive, connections do not.
   *
   * @throws IllegalStateException if it is not running, or did not come back (the message quotes its output)
   */
  public void restart() {
    ServerRun stopping = run;
    if (stopping == null) {
      throw new IllegalStateException("MariaDB is not running; start() it first.");
    }
    run = null;
    shutDown(stopping);
    MariaDbBinaries.Found binaries = MariaDbBinaries.locate();
    run = ServerRun.relaunch(NAME, stopping.dir(), port, (dir, same) -> launch(binaries, dir, same));
  }

  /**
   * Ends every connection of the test user but the one that ends them ({@code KILL CONNECTION}, through the
   * {@code mariadb} client), as an administrator or a proxy would, while the server keeps serving: a client's next
   * statement on such a connection fails, and it opens another.
   *
   * @return how many connections were ended (one that closed meanwhile counts too)
   * @throws IllegalStateException if the client could not list or end them (the message quotes its output)
   */
  public int killConnections() {
    Commands.Completion listed = client("SELECT id FROM information_schema.PROCESSLIST WHERE user = '" + USER
        + "' AND id <> CONNECTION_ID()", false);
    String[] ids = listed.output().strip().isEmpty() ? new String[0] : listed.output().strip().split("\\s+");
    if (!listed.succeeded() || !String.join(" ", ids).matches("[\\d ]*")) {
      throw new IllegalStateException("The mariadb client could not list the connections to " + this
          + ". Its output:\n" + listed.output());
    }
    if (ids.length > 0) {
      StringBuilder kills = new StringBuilder();
      for (String id : ids) {
        kills.append("KILL CONNECTION ").append(id).append(';');
      }
      Commands.Completion killed = client(kills.toString(), true); // --force: past one that closed meanwhile
      // With --force the client echoes each failed statement between dashed lines before its ERROR line: only the
      // errors say what failed, and a connection that closed on its own meanwhile is no failure.
      List<String> errors = killed.output().lines().filter(line -> line.startsWith("ERROR")).toList();
      if (!killed.succeeded() && (errors.isEmpty() || !errors.stream().allMatch(e -> e.contains("Unknown thread id")))) {
        throw new IllegalStateException("The mariadb client could not end the connections to " + this
            + ". Its output:\n" + killed.output());
      }
    }
    return ids.length;
  }

  /** Whether the server process is alive. */
  public boolean isRunning() {
    ServerRun current = run;
    return current != null && current.process().isAlive();
  }

  /** The loopback port the server listens on. */
  public int port() {
    int current = port;
    if (current == 0) {
      throw new IllegalStateException("MariaDB has not been started yet; call start() first.");
    }
    return current;
  }

  /** The address with the test user and password: {@code mariadb://baton:PASSWORD@127.0.0.1:PORT/baton}. */
  public String uri() {
    return "mariadb://" + USER + ":" + PASSWORD + "@" + HOST + ":" + port() + "/" + DATABASE;
  }

  /** The JDBC URL, without user or password: {@code jdbc:mariadb://127.0.0.1:PORT/baton}. */
  public String jdbcUrl() {
    return "jdbc:mariadb://" + HOST + ":" + port() + "/" + DATABASE;
  }

  /** The pid of the server process. */
  public long pid() {
    ServerRun current = run;
    if (current == null) {
      throw new IllegalStateException("MariaDB is not running.");
    }
    return current.process().pid();
  }

  /** The server's last lines of log, e.g. to check that it logged no error. */
  public String logTail() {
    ServerRun current = run;
    return current == null ? "" : current.output().tail();
  }

  @Override
  public String toString() {
    return "MariaDbServer{port=" + port + ", running=" + isRunning() + '}';
  }

  /** Runs {@code sql} in the {@code mariadb} client as the test user; {@code force} goes on past an error. */
  private Commands.Completion client(String sql, boolean force) {
    return MariaDbInstall.client(port(), sql, force, STOP_TIMEOUT);
  }


  /** Starts the server of the data in {@code dir} on {@code candidate}; empty if the port turned out to be taken. */
  private static Optional<ServerRun> launch(MariaDbBinaries.Found binaries, Path dir, int candidate) {
    List<String> command = MariaDbInstall.serverCommand(binaries, dir, candidate);
    return ServerRun.launch(NAME, binaries.server(), command, dir, "mariadbd-" + candidate, candidate, READY,
        START_TIMEOUT, MariaDbServer::shutDown);
  }

  /** A clean shutdown (SIGTERM), SIGKILL if it takes too long. */
  private static void shutDown(ServerRun stopping) {
    Processes.terminate(stopping.process(), STOP_TIMEOUT, "mariadbd");
    Processes.forgetOnExit(stopping.exitHook());
  }
}
