package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy in front of one server, to inject network faults into a client's connections: lose the
 * server's replies, cut every connection, refuse new ones. Give clients {@link #address()} instead of the
 * server's.
 *
 * <p>The case it was made for, a create that reached the server but whose reply was lost:
 *
 * <pre>{@code
 * try (TcpProxy proxy = TcpProxy.start("127.0.0.1", zooKeeper.port())) {
 *   ZooKeeper client = connect(proxy.address());
 *   proxy.holdReplies();                       // requests still reach the server; replies are dropped
 *   client.create(..., callback, null);        // asynchronously: the reply will never come
 *   await().until(() -> proxy.droppedReplyBytes() > 0);   // the server executed it and answered
 *   proxy.dropConnections();                   // the client sees its connection drop...
 *   proxy.resumeReplies();                     // ...and reconnects, with the same session
 * }
 * }</pre>
 *
 * <p>Every connection runs on two daemon threads named {@code baton-proxy-PORT-N-...}; {@link #close()} ends
 * them all. All methods may be called from any thread.
 */
public final class TcpProxy implements AutoCloseable {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration THREAD_STOP_TIMEOUT = Duration.ofSeconds(5);

  private volatile InetSocketAddress target;
  private final ServerSocket listener;
  private final Thread acceptor;
  private final Set<ProxyConnection> connections = ConcurrentHashMap.newKeySet();
  private final AtomicInteger accepted = new AtomicInteger();
  private final AtomicLong droppedReplyBytes = new AtomicLong();
  private volatile boolean holdingReplies;
  private final Object replyGate = new Object();
  private boolean delayingReplies;
  private volatile boolean refusing;

  private TcpProxy(InetSocketAddress target, ServerSocket listener) {
    this.target = target;
    this.listener = listener;
    this.acceptor = new Thread(this::acceptAll, threadPrefix() + "accept");
    acceptor.setDaemon(true);
  }

  /**
   * Starts a proxy on a free loopback port that forwards every connection to {@code targetHost:targetPort}. The
   * target need not be up yet: a connection that cannot reach it is closed.
   */
  public static TcpProxy start(String targetHost, int targetPort) {
    ServerSocket listener;
    try {
      listener = new ServerSocket(0, 50, InetAddress.getByName(Loopback.HOST));
    } catch (IOException e) {
      throw new UncheckedIOException("Could not open a loopback port for a proxy to " + targetHost + ":"
          + targetPort + ": " + e.getMessage(), e);
    }
    TcpProxy proxy = new TcpProxy(new InetSocketAddress(targetHost, targetPort), listener);
    proxy.acceptor.start();
    return proxy;
  }

  /** The loopback port clients connect to. */
  public int port() {
    return listener.getLocalPort();
  }

  /** The address clients connect to: {@code 127.0.0.1:PORT}. */
  public String address() {
    return Loopback.HOST + ":" + port();
  }

  /**
   * From now on, drops every byte the server sends on any connection, current or new, while still forwarding
   * what clients send. The dropped bytes are lost for good, so a client's stream is usually broken afterwards:
   * {@link #dropConnections()} before {@link #resumeReplies()}.
   */
  public void holdReplies() {
    holdingReplies = true;
  }

  /**
   * From now on, keeps every byte the server sends until {@link #deliverReplies()}, as a slow network or a
   * paused client would: requests still reach the server, and nothing is lost.
   */
  public void delayReplies() {
    synchronized (replyGate) {
      delayingReplies = true;
    }
  }

  /** Delivers what {@link #delayReplies()} kept, and every reply from now on. */
  public void deliverReplies() {
    synchronized (replyGate) {
      delayingReplies = false;
      replyGate.notifyAll();
    }
  }

  /** Delivers the server's bytes again from now on; those dropped meanwhile stay lost. */
  public void resumeReplies() {
    holdingReplies = false;
  }

  /** How many bytes from the server {@link #holdReplies()} has dropped so far, to wait until a reply was lost. */
  public long droppedReplyBytes() {
    return droppedReplyBytes.get();
  }

  /**
   * Sends new connections to {@code host:port} from now on and drops the current ones, as a virtual address
   * moved by a failover would: clients reconnect to the new server.
   */
  public void retarget(String host, int port) {
    target = new InetSocketAddress(host, port);
    dropConnections();
  }

  /**
   * Closes every current connection, both the client's side and the server's, and returns once they are closed.
   * New connections are still accepted (unless {@link #refuseConnections refused}).
   */
  public void dropConnections() {
    List<ProxyConnection> dropping = List.copyOf(connections);
    dropping.forEach(ProxyConnection::close);
    dropping.forEach(connection -> connection.awaitEnd(THREAD_STOP_TIMEOUT));
    connections.removeAll(dropping);
  }

  /**
   * While {@code refuse} is true, closes every new connection as soon as it is accepted (the client sees end of
   * stream); current connections go on.
   */
  public void refuseConnections(boolean refuse) {
    refusing = refuse;
  }

  /** How many client connections are open now. */
  public int openConnections() {
    return connections.size();
  }

  /** Stops accepting, closes every connection and returns once all of the proxy's threads have ended. */
  @Override
  public void close() {
    try {
      listener.close();
    } catch (IOException e) {
      // Closing the listener cannot fail in a way that leaves it open.
    }
    join(acceptor);
    deliverReplies();
    dropConnections();
  }

  @Override
  public String toString() {
    return "TcpProxy{" + address() + " -> " + target.getHostString() + ":" + target.getPort() + ", connections="
        + connections.size() + (holdingReplies ? ", holding replies" : "") + (refusing ? ", refusing" : "") + '}';
  }

  private void acceptAll() {
    while (!listener.isClosed()) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException closed) {
        return;
      }
      if (refusing) {
        closeQuietly(client);
        continue;
      }
      Socket server = connectToTarget();
      if (server == null) {
        closeQuietly(client);
        continue;
      }
      String name = threadPrefix() + accepted.incrementAndGet() + "-";
      ProxyConnection connection = new ProxyConnection(client, server, name, this::replyPolicy, connections::remove);
      connections.add(connection);
      connection.start();
    }
  }

  /**
   * Whether to deliver {@code length} bytes from the server, once replies are no longer delayed; counts them
   * as dropped if not.
   */
  private boolean replyPolicy(int length) {
    synchronized (replyGate) {
      while (delayingReplies) {
        try {
          replyGate.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    if (holdingReplies) {
      droppedReplyBytes.addAndGet(length);
      return false;
    }
    return true;
  }

  private Socket connectToTarget() {
    Socket server = new Socket();
    try {
      server.setTcpNoDelay(true);
      server.connect(target, Math.toIntExact(CONNECT_TIMEOUT.toMillis()));
      return server;
    } catch (IOException unreachable) {
      closeQuietly(server);
      return null;
    }
  }

  private String threadPrefix() {
    return "baton-proxy-" + listener.getLocalPort() + "-";
  }

  private static void join(Thread thread) {
    boolean interrupted = false;
    long deadline = System.nanoTime() + THREAD_STOP_TIMEOUT.toNanos();
    while (thread.isAlive() && System.nanoTime() < deadline) {
      try {
        thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      throw new IllegalStateException(thread.getName() + " still runs " + THREAD_STOP_TIMEOUT.toSeconds()
          + " s after its socket was closed.");
    }
  }

  static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // Closing a socket cannot fail in a way that leaves it open.
    }
  }
}
