package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import dev.baton.embedded.internal.WorkDirs;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A real PostgreSQL server on a free loopback port, for tests: a new cluster made by {@code initdb} in a temporary
 * directory, without fsync, whose one user {@value #USER} logs in with the password {@value #PASSWORD} over TCP (the
 * server asks for it: {@code scram-sha-256}), stopped by its own pid and deleted with its data. Debian's
 * {@code postgresql} package provides the executables ({@link PostgresBinaries}); when the tests run as root the
 * server runs as an unprivileged user ({@link PostgresUser}).
 *
 * <p>{@link #start()} and {@link #stop()} are meant for one thread at a time (the test's); the other methods may be
 * called from any thread. A server still running when the JVM exits is killed by a shutdown hook.
 */
public final class PostgresServer {
  /** The user the tests log in as: the cluster's superuser. */
  public static final String USER = "baton";
  /** That user's password. */
  public static final String PASSWORD = "baton-test-password";
  /** The database the tests use. */
  public static final String DATABASE = "postgres";

  private static final String NAME = "PostgreSQL";
  private static final String HOST = Loopback.HOST;
  private static final String READY = "database system is ready to accept connections";
  private static final Duration INITDB_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  private volatile int port;
  private volatile ServerRun run;

  /**
   * Makes a new cluster and starts the server on a free port, returning once it accepts connections.
   *
   * @throws IllegalStateException if it is already running, if PostgreSQL is not installed (the message says how to
   *     install it), or if {@code initdb} failed or the server did not become ready (the message quotes its output)
   */
  public void start() {
    if (isRunning()) {
      throw new IllegalStateException("PostgreSQL is already running on port " + port + "; stop() it first.");
    }
    stop();
    Path binaries = PostgresBinaries.locate();
    PostgresUser user = PostgresUser.forThisProcess();
    ServerRun.OnPort started = ServerRun.onFreePort(NAME, () -> initdb(binaries, user),
        (dir, candidate) -> launch(binaries, user, dir, candidate));
    port = started.port();
    run = started.run();
  }

  /**
   * Stops the server by its pid (a fast shutdown, SIGINT, then SIGKILL after 10 s), waits until it is gone and
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
   * Stops the server (a fast shutdown, which writes every committed row to disk) and starts it again on the same port
   * and data: rows survive, connections do not.
   *
   * @throws IllegalStateException if it is not running, or did not come back (the message quotes its output)
   */
  public void restart() {
    ServerRun stopping = run;
    if (stopping == null) {
      throw new IllegalStateException("PostgreSQL is not running; start() it first.");
    }
    run = null;
    shutDown(stopping);
    Path binaries = PostgresBinaries.locate();
    PostgresUser user = PostgresUser.forThisProcess();
    run = ServerRun.relaunch(NAME, stopping.dir(), port, (dir, same) -> launch(binaries, user, dir, same));
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
      throw new IllegalStateException("PostgreSQL has not been started yet; call start() first.");
    }
    return current;
  }

  /** The address with the test user and password: {@code postgresql://baton:PASSWORD@127.0.0.1:PORT/postgres}. */
  public String uri() {
    return "postgresql://" + USER + ":" + PASSWORD + "@" + HOST + ":" + port() + "/" + DATABASE;
  }

  /** The JDBC URL, without user or password: {@code jdbc:postgresql://127.0.0.1:PORT/postgres}. */
  public String jdbcUrl() {
    return "jdbc:postgresql://" + HOST + ":" + port() + "/" + DATABASE;
  }

  /** The pid of the server process (the postmaster). */
  public long pid() {
    ServerRun current = run;
    if (current == null) {
      throw new IllegalStateException("PostgreSQL is not running.");
    }
    return current.process().pid();
  }

  /** The server's last lines of log, e.g. to check that it logged no error. */
  public String logTail() {
    ServerRun current = run;
    return current == null ? "" : current.output().tail();
  }

  /**
   * Ends the connection of every client but this call's own, as an administrator's {@code pg_terminate_backend}
   * would (through {@code psql}, as the test user); returns once they are ended.
   *
   * @return how many connections were ended
   * @throws IllegalStateException if the server is not running or {@code psql} failed (the message quotes it)
   */
  public int terminateConnections() {
    ProcessBuilder psql = new ProcessBuilder(PostgresBinaries.psql().toString(), "-X", "-A", "-t", "-q",
        "-h", HOST, "-p", Integer.toString(port()), "-U", USER, "-d", DATABASE, "-c",
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            + " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
    psql.environment().put("PGPASSWORD", PASSWORD);
    psql.environment().put("PGCONNECT_TIMEOUT", Long.toString(STOP_TIMEOUT.toSeconds()));
    Commands.Completion terminated = Commands.runToEnd(psql, STOP_TIMEOUT.multipliedBy(2), "psql");
    String count = terminated.output().strip();
    if (!terminated.succeeded() || !count.matches("\\d+")) {
      throw new IllegalStateException("psql could not terminate the clients' connections to " + this
          + ". Its output:\n" + terminated.output());
    }
    return Integer.parseInt(count);
  }

  @Override
  public String toString() {
    return "PostgresServer{port=" + port + ", running=" + isRunning() + '}';
  }

  /** A new cluster in a new directory: {@code DIR/data}, the password file and the socket beside it. */
  private static Path initdb(Path binaries, PostgresUser user) {
    Path dir = WorkDirs.create("baton-postgres-", NAME);
    user.own(dir);
    Path passwordFile = dir.resolve("password");
    try {
      Files.writeString(passwordFile, PASSWORD + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      WorkDirs.delete(dir, NAME);
      throw new UncheckedIOException("Could not write " + passwordFile + ": " + e.getMessage(), e);
    }
    user.own(passwordFile);
    List<String> command = user.command(List.of(binaries.resolve("initdb").toString(),
        "-D", dir.resolve("data").toString(), "-U", USER, "--pwfile=" + passwordFile, "--auth=scram-sha-256",
        "-E", "UTF8", "--locale=C", "--no-sync"));
    Commands.Completion initialized = Commands.runToEnd(new ProcessBuilder(command).directory(dir.toFile()),
        INITDB_TIMEOUT, "initdb");
    if (!initialized.succeeded()) {
      WorkDirs.delete(dir, NAME);
      throw new IllegalStateException("initdb (" + binaries + ") did not make a cluster within "
          + INITDB_TIMEOUT.toSeconds() + " s. Its last output:\n" + initialized.output());
    }
    return dir;
  }

  /** Starts the server of the cluster in {@code dir} on {@code candidate}; empty if the port turned out to be taken. */
  private static Optional<ServerRun> launch(Path binaries, PostgresUser user, Path dir, int candidate) {
    List<String> command = new ArrayList<>(List.of(binaries.resolve("postgres").toString(),
        "-D", dir.resolve("data").toString(), "-p", Integer.toString(candidate), "-k", dir.toString(),
        "-c", "listen_addresses=" + HOST, "-c", "fsync=off", "-c", "synchronous_commit=off",
        "-c", "full_page_writes=off", "-c", "max_connections=200"));
    return ServerRun.launch(NAME, binaries, user.command(command), dir, "postgres-" + candidate, candidate, READY,
        START_TIMEOUT, PostgresServer::shutDown);
  }

  /** A fast shutdown (SIGINT: sessions are ended at once), SIGKILL if it takes too long. */
  private static void shutDown(ServerRun stopping) {
    Process process = stopping.process();
    if (process.isAlive()) {
      signalInterrupt(process.pid());
    }
    Processes.terminate(process, STOP_TIMEOUT, "postgres");
    Processes.forgetOnExit(stopping.exitHook());
  }

  private static void signalInterrupt(long pid) {
    try {
      Process kill = new ProcessBuilder("kill", "-INT", Long.toString(pid)).redirectErrorStream(true).start();
      kill.getInputStream().transferTo(OutputStream.nullOutputStream());
      kill.waitFor();
    } catch (IOException e) {
      // SIGTERM and SIGKILL follow from terminate(): the server stops anyway.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
