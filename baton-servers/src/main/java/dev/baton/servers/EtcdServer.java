package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import dev.baton.embedded.internal.WorkDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * A real single-member {@code etcd} process on free loopback ports (one for clients, one for peers), over its own
 * temporary data directory, for tests. See {@link EtcdMember} for the flags it runs with.
 *
 * <p>Its data lives as long as the object's data directory: {@link #restart()}, and {@link #kill()} followed by
 * {@link #start()}, keep every key and lease, as a real etcd restart does; {@link #stop()} and {@link #close()}
 * delete it, so that the next {@link #start()} is empty again. The ports stay the same for the life of the object.
 *
 * <p>{@link #start()}, {@link #stop()}, {@link #restart()} and {@link #kill()} are meant for one thread at a time
 * (the test's); the other methods may be called from any thread. A server still running when the JVM exits is
 * killed by a shutdown hook.
 *
 * <p>{@link #withTls()} makes one that serves clients over TLS only and asks them for a certificate: its
 * {@link #tls() certificates} are made when it first starts and deleted by {@link #close()}.
 */
public final class EtcdServer implements AutoCloseable {
  private static final String NAME = "etcd";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final int PORT_ATTEMPTS = 5;

  private volatile EtcdMember member;
  private volatile Path dir;
  private volatile String token;
  private volatile EtcdProcess run;
  private final boolean tlsWanted;
  private volatile Path tlsDir;
  private volatile TlsCertificates tls;

  /** An etcd that serves clients over plain HTTP. */
  public EtcdServer() {
    this(false);
  }

  private EtcdServer(boolean tlsWanted) {
    this.tlsWanted = tlsWanted;
  }

  /** An etcd that serves clients over TLS only, with certificates of its own, and asks them for theirs. */
  public static EtcdServer withTls() {
    return new EtcdServer(true);
  }

  /**
   * Starts etcd and waits until it serves clients: on free ports the first time, on the same ports afterwards;
   * over the data it had if it was {@link #kill() killed} (or {@link #restart() restarted}), over an empty data
   * directory otherwise.
   *
   * @throws IllegalStateException if it is already running, if {@code etcd} is not installed (the message says
   *     how to install it), if its ports were taken by another process, or if it did not serve within 15 s (the
   *     message quotes its output)
   */
  public void start() {
    if (isRunning()) {
      throw new IllegalStateException("etcd is already running at " + endpoint() + "; stop() it first.");
    }
    EtcdProcess exited = run;
    if (exited != null) {
      run = null;
      exited.stop(STOP_TIMEOUT);
    }
    Path binary = ServerBinary.ETCD.locate();
    if (dir == null) {
      dir = WorkDirs.create("baton-etcd-", NAME);
      token = "baton-etcd-" + UUID.randomUUID();
    }
    if (member != null) {
      if (!launch(binary, member)) {
        throw new IllegalStateException("Cannot start etcd again on ports " + member.clientPort() + " and "
            + member.peerPort() + ": another process has taken one of them.");
      }
      return;
    }
    if (tlsWanted && tls == null) {
      tlsDir = WorkDirs.create("baton-etcd-tls-", NAME);
      tls = TlsCertificates.generate(tlsDir);
    }
    for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
      int[] ports = Loopback.freePorts(2);
      EtcdMember candidate = new EtcdMember("default", ports[0], ports[1], tls);
      if (launch(binary, candidate)) {
        member = candidate;
        return;
      }
      WorkDirs.delete(dataDir(), NAME);
    }
    throw new IllegalStateException("etcd found one of its ports taken each of " + PORT_ATTEMPTS
        + " times by the time it started; is something grabbing loopback ports?");
  }

  /**
   * Stops etcd (SIGTERM, then SIGKILL after 10 s), waits until it is gone, and deletes its data: the next
   * {@link #start()} begins empty, on the same ports. Does nothing to a process that is not running.
   */
  public void stop() {
    halt();
    Path deleting = dir;
    dir = null;
    if (deleting != null) {
      WorkDirs.delete(deleting, NAME);
    }
  }

  /** Stops etcd as {@link #stop()} does, but keeps its data, and starts it again on the same ports over that data. */
  public void restart() {
    halt();
    start();
  }

  /**
   * Kills etcd (SIGKILL) as a crash would, and waits until it is gone; its data stays for the next {@link #start()}.
   * Does nothing if it is not running.
   */
  public void kill() {
    EtcdProcess killing = run;
    if (killing != null) {
      run = null;
      killing.kill(STOP_TIMEOUT);
    }
  }

  /** Whether the process is alive. */
  public boolean isRunning() {
    EtcdProcess current = run;
    return current != null && current.isAlive();
  }

  /** The pid of the running process. */
  public long pid() {
    EtcdProcess current = run;
    if (current == null) {
      throw new IllegalStateException("etcd is not running.");
    }
    return current.pid();
  }

  /** The certificates of a server made {@link #withTls()}, once it has started. */
  public TlsCertificates tls() {
    if (tls == null) {
      throw new IllegalStateException("This etcd has no TLS certificates: make it with EtcdServer.withTls() and start it.");
    }
    return tls;
  }

  /** The address to give an etcd client: {@code http://127.0.0.1:PORT}, or {@code https://} with TLS. */
  public String endpoint() {
    return started().clientUrl();
  }

  /** The loopback port on which etcd serves clients (gRPC and the JSON gateway); the same across restarts. */
  public int clientPort() {
    return started().clientPort();
  }

  /** The loopback port on which etcd would talk to peers; the same across restarts. */
  public int peerPort() {
    return started().peerPort();
  }

  /** Stops etcd and deletes its data, as {@link #stop()} does, and its TLS certificates. */
  @Override
  public void close() {
    stop();
    Path deleting = tlsDir;
    tlsDir = null;
    tls = null;
    if (deleting != null) {
      WorkDirs.delete(deleting, NAME);
    }
  }

  @Override
  public String toString() {
    EtcdMember current = member;
    return "EtcdServer{" + (current == null ? "never started" : current.clientUrl()) + ", running=" + isRunning() + '}';
  }

  /** Runs {@code candidate} and waits until it serves; false if a port was taken (nothing is left running then). */
  private boolean launch(Path binary, EtcdMember candidate) {
    List<String> command = candidate.command(binary, dataDir(), List.of(candidate), token);
    EtcdProcess started = EtcdProcess.launch(command, dir, "etcd-" + candidate.clientPort());
    if (!started.awaitReady(START_TIMEOUT)) {
      return false;
    }
    run = started;
    return true;
  }

  /** Stops the process, keeping its data. */
  private void halt() {
    EtcdProcess stopping = run;
    if (stopping != null) {
      run = null;
      stopping.stop(STOP_TIMEOUT);
    }
  }

  private Path dataDir() {
    return dir.resolve("data");
  }

  private EtcdMember started() {
    EtcdMember current = member;
    if (current == null) {
      throw new IllegalStateException("etcd has not been started yet; call start() first.");
    }
    return current;
  }
}
