package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import dev.baton.embedded.internal.WorkDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One Redis Sentinel process ({@code redis-server sentinel.conf --sentinel}) on a free loopback port, watching one
 * master, as part of a {@link RedisSentinelSet}. Its configuration, which Sentinel rewrites as it learns the set-up,
 * lives in a directory of its own, deleted when it stops. A sentinel still running when the JVM exits is killed by
 * a shutdown hook.
 */
final class RedisSentinel {
  private static final String HOST = Loopback.HOST;
  private static final String PORT_TAKEN = "Address already in use";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);
  private static final int PORT_ATTEMPTS = 5;

  private final int port;
  private final Process process;
  private final Path dir;
  private final Thread exitHook;

  private RedisSentinel(int port, Process process, Path dir, Thread exitHook) {
    this.port = port;
    this.process = process;
    this.dir = dir;
    this.exitHook = exitHook;
  }

  /**
   * Starts a sentinel that watches the master {@code name} at {@code 127.0.0.1:masterPort} with the given quorum,
   * judges it down after {@code downAfter} without an answer, and gives a failover {@code failoverTimeout}; returns
   * once it watches.
   *
   * @throws IllegalStateException if {@code redis-server} is not installed, or the sentinel did not start within
   *     10 s (the message quotes its output)
   */
  static RedisSentinel start(String name, int masterPort, int quorum, Duration downAfter, Duration failoverTimeout) {
    Path binary = ServerBinary.REDIS.locate();
    List<String> monitoring = List.of(
        "sentinel monitor " + name + " " + HOST + " " + masterPort + " " + quorum,
        "sentinel down-after-milliseconds " + name + " " + downAfter.toMillis(),
        "sentinel failover-timeout " + name + " " + failoverTimeout.toMillis());
    for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
      Optional<RedisSentinel> started = launch(binary, Loopback.freePort(), name, monitoring);
      if (started.isPresent()) {
        return started.get();
      }
    }
    throw new IllegalStateException("redis-server --sentinel found each of " + PORT_ATTEMPTS
        + " free ports taken by the time it started; is something grabbing loopback ports?");
  }

  /** The loopback port the sentinel listens on. */
  int port() {
    return port;
  }

  /** The sentinel's address: {@code 127.0.0.1:PORT}. */
  String address() {
    return HOST + ":" + port;
  }

  /** Whether the process is alive. */
  boolean isRunning() {
    return process.isAlive();
  }

  /**
   * Runs one command against the sentinel on a new connection, such as {@code command("SENTINEL", "MASTER", name)};
   * the reply as {@link RedisServer#command} gives it.
   *
   * @throws RedisErrorReply if the sentinel answered with an error
   * @throws UncheckedIOException if it could not be reached or did not answer within 5 s
   */
  Object command(String... args) {
    try {
      return Resp.call(new InetSocketAddress(HOST, port), COMMAND_TIMEOUT, args);
    } catch (IOException e) {
      throw new UncheckedIOException("The sentinel on port " + port + " did not answer " + String.join(" ", args)
          + (isRunning() ? "" : " (it is not running)") + ": " + e.getMessage(), e);
    }
  }

  /** Stops the sentinel (SIGTERM, then SIGKILL after 10 s), waits until it is gone, and deletes its directory. */
  void stop() {
    Processes.terminate(process, STOP_TIMEOUT, "redis-sentinel");
    Processes.forgetOnExit(exitHook);
    WorkDirs.delete(dir, "redis-sentinel");
  }

  @Override
  public String toString() {
    return "RedisSentinel{port=" + port + ", running=" + isRunning() + '}';
  }

  /** Starts a sentinel on {@code candidate}; empty if the port turned out to be taken. */
  private static Optional<RedisSentinel> launch(Path binary, int candidate, String name, List<String> monitoring) {
    Path dir = WorkDirs.create("baton-sentinel-", "redis-sentinel");
    Path config = dir.resolve("sentinel.conf");
    try {
      Files.write(config, configuration(candidate, dir, monitoring));
    } catch (IOException e) {
      WorkDirs.delete(dir, "redis-sentinel");
      throw new UncheckedIOException("Could not write " + config + ": " + e.getMessage(), e);
    }
    Process process = startProcess(binary, config, dir);
    String thread = "redis-sentinel-" + candidate;
    ProcessOutput output = ProcessOutput.follow(process, thread + "-output");
    RedisSentinel started = new RedisSentinel(candidate, process, dir, Processes.killOnExit(process, thread));
    String watching = "+monitor master " + name + " ";
    boolean ready;
    try {
      ready = output.awaitLine(line -> line.contains(watching), START_TIMEOUT).isPresent();
    } catch (InterruptedException e) {
      started.stop();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while a sentinel was starting on port " + candidate, e);
    }
    if (ready) {
      return Optional.of(started);
    }
    String tail = output.tail();
    started.stop();
    if (tail.contains(PORT_TAKEN)) {
      return Optional.empty();
    }
    throw new IllegalStateException("redis-server --sentinel (" + binary + ") did not say \"" + watching.trim()
        + "\" on port " + candidate + " within " + START_TIMEOUT.toSeconds() + " s. Its last output:\n" + tail);
  }

  /** The sentinel's configuration file: where it listens, and what it watches. */
  private static List<String> configuration(int port, Path dir, List<String> monitoring) {
    return Stream.concat(Stream.of(
            "port " + port,
            "bind " + HOST,
            "daemonize no",
            "loglevel notice",
            "dir " + dir),
        monitoring.stream()).toList();
  }

  private static Process startProcess(Path binary, Path config, Path dir) {
    try {
      return new ProcessBuilder(binary.toString(), config.toString(), "--sentinel")
          .directory(dir.toFile())
          .redirectErrorStream(true)
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not run " + binary + " --sentinel: " + e.getMessage(), e);
    }
  }
}
