package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import dev.baton.embedded.internal.WorkDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntSupplier;

/**
 * A real {@code redis-server} process on a free loopback port, without persistence, for tests.
 *
 * <p>{@link #start()}, {@link #stop()}, {@link #kill()} and {@link #restart()} are meant for one thread at a time (the
 * test's); {@link #port()}, {@link #uri()}, {@link #isRunning()} and {@link #command} may be called from any thread.
 * A server still running when the JVM exits is killed by a shutdown hook.
 */
public final class RedisServer {
  private static final String HOST = Loopback.HOST;
  private static final String READY = "Ready to accept connections";
  private static final String PORT_TAKEN = "Address already in use";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);
  private static final int PORT_ATTEMPTS = 5;

  private final List<String> options;
  private final IntSupplier freePort;
  private volatile int port;
  private volatile Run run;

  /** A server with the default options, on any free port. */
  public RedisServer() {
    this(List.of(), Loopback::freePort);
  }

  /**
   * A server with {@code options} on top of the defaults (a cluster node's, say), on ports from {@code freePort}.
   */
  RedisServer(List<String> options, IntSupplier freePort) {
    this.options = List.copyOf(options);
    this.freePort = freePort;
  }

  /** One life of the process, from start to stop. */
  private record Run(Process process, ProcessOutput output, Path dir, Thread exitHook) {}

  /**
   * Starts the server and waits until it accepts connections: on a free port the first time, on the same
   * port as before after a {@link #stop()}.
   *
   * @throws IllegalStateException if it is already running, if {@code redis-server} is not installed (the
   *     message says how to install it), or if it did not become ready within 10 s (the message quotes its
   *     output)
   */
  public void start() {
    if (isRunning()) {
      throw new IllegalStateException("redis-server is already running on port " + port + "; stop() it first.");
    }
    stop();
    Path binary = ServerBinary.REDIS.locate();
    if (port != 0) {
      run = launch(binary, port).orElseThrow(() -> new IllegalStateException(
          "Cannot start redis-server again on port " + port + ": another process has taken the port."));
      return;
    }
    for (int attempt = 0; attempt < PORT_ATTEMPTS && run == null; attempt++) {
      int candidate = freePort.getAsInt();
      Optional<Run> started = launch(binary, candidate);
      if (started.isPresent()) {
        port = candidate;
        run = started.get();
      }
    }
    if (run == null) {
      throw new IllegalStateException("redis-server found each of " + PORT_ATTEMPTS
          + " free ports taken by the time it started; is something grabbing loopback ports?");
    }
  }

  /** Stops the server (SIGTERM, then SIGKILL after 10 s) and waits until it is gone. Does nothing if it is not running. */
  public void stop() {
    Run stopping = run;
    if (stopping != null) {
      run = null;
      stop(stopping);
    }
  }

  /**
   * Kills the server (SIGKILL), as a crash would: it answers nothing more and tells its replicas nothing. Waits until
   * it is gone; does nothing if it is not running. {@link #start()} starts it again on the same port.
   */
  public void kill() {
    Run killing = run;
    if (killing != null) {
      run = null;
      Processes.kill(killing.process(), STOP_TIMEOUT, "redis-server");
      forget(killing);
    }
  }

  /** Stops the server and starts a new one on the same port. Without persistence, every key is gone. */
  public void restart() {
    stop();
    start();
  }

  /** Whether the process is alive. */
  public boolean isRunning() {
    Run current = run;
    return current != null && current.process().isAlive();
  }

  /** The loopback port the server listens on; it stays the same across restarts. */
  public int port() {
    int current = port;
    if (current == 0) {
      throw new IllegalStateException("redis-server has not been started yet; call start() first.");
    }
    return current;
  }

  /** The address to give a Redis client: {@code redis://127.0.0.1:PORT}. */
  public String uri() {
    return "redis://" + HOST + ":" + port();
  }

  /** The pid of the running process. */
  public long pid() {
    Run current = run;
    if (current == null) {
      throw new IllegalStateException("redis-server is not running.");
    }
    return current.process().pid();
  }

  /**
   * Runs one Redis command on a new connection, such as {@code command("DBSIZE")} or
   * {@code command("KEYS", "baton:*")}.
   *
   * @return a {@code String} for simple and bulk strings, a {@code Long} for integers, a {@code List<Object>}
   *     for arrays, {@code null} for nil
   * @throws RedisErrorReply if Redis answered with an error
   * @throws UncheckedIOException if the server could not be reached or did not answer within 5 s
   */
  public Object command(String... args) {
    if (args.length == 0) {
      throw new IllegalArgumentException("Name a command, e.g. command(\"PING\").");
    }
    int current = port();
    try {
      return Resp.call(new InetSocketAddress(HOST, current), COMMAND_TIMEOUT, args);
    } catch (IOException e) {
      throw new UncheckedIOException("redis-server on port " + current + " did not answer " + args[0]
          + (isRunning() ? "" : " (it is not running)") + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "RedisServer{port=" + port + ", running=" + isRunning() + '}';
  }

  /** Starts a process on {@code candidate}; empty if the port turned out to be taken. */
  private Optional<Run> launch(Path binary, int candidate) {
    Path dir = WorkDirs.create("baton-redis-", "redis-server");
    Process process = startProcess(binary, candidate, dir, options);
    String name = "redis-server-" + candidate;
    Run started = new Run(process, ProcessOutput.follow(process, name + "-output"), dir,
        Processes.killOnExit(process, name));
    boolean ready;
    try {
      ready = started.output().awaitLine(line -> line.contains(READY), START_TIMEOUT).isPresent();
    } catch (InterruptedException e) {
      stop(started);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while redis-server was starting on port " + candidate, e);
    }
    if (ready) {
      return Optional.of(started);
    }
    String output = started.output().tail();
    stop(started);
    if (output.contains(PORT_TAKEN)) {
      return Optional.empty();
    }
    throw new IllegalStateException("redis-server (" + binary + ") did not say \"" + READY + "\" on port "
        + candidate + " within " + START_TIMEOUT.toSeconds() + " s. Its last output:\n" + output);
  }

  private static Process startProcess(Path binary, int port, Path dir, List<String> options) {
    List<String> command = new ArrayList<>(List.of(
        binary.toString(),
        "--port", Integer.toString(port),
        "--bind", HOST,
        "--save", "",
        "--appendonly", "no",
        "--daemonize", "no",
        "--loglevel", "notice",
        "--dir", dir.toString()));
    command.addAll(options);
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(dir.toFile())
        .redirectErrorStream(true);
    try {
      return builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not run " + binary + ": " + e.getMessage(), e);
    }
  }

  private static void stop(Run stopping) {
    Processes.terminate(stopping.process(), STOP_TIMEOUT, "redis-server");
    forget(stopping);
  }

  /** Clears up after a process that is gone. */
  private static void forget(Run ended) {
    Processes.forgetOnExit(ended.exitHook());
    WorkDirs.delete(ended.dir(), "redis-server");
  }
}
