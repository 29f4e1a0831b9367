package dev.baton.bench.suite;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy in front of a database server that counts round trips: on each connection, a burst of bytes
 * from the client after the server last spoke opens a new turn. A client that waits for each answer before it sends
 * again makes one turn per request; one that sends several requests before reading (a pipeline) makes one turn for
 * all of them. It also counts the bytes each way. For measuring only: every byte goes through two threads here.
 */
final class TurnCountingProxy implements AutoCloseable {
  private static final int BUFFER = 64 * 1024;

  private final ServerSocket listener;
  private final InetSocketAddress server;
  private final AtomicLong turns = new AtomicLong();
  private final AtomicLong bytesUp = new AtomicLong();
  private final AtomicLong bytesDown = new AtomicLong();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  /** A proxy to {@code host:port} on a free loopback port, accepting connections at once. */
  TurnCountingProxy(String host, int port) throws IOException {
    server = new InetSocketAddress(host, port);
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "proxy-accept-" + port);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** The port clients connect to instead of the server's. */
  int port() {
    return listener.getLocalPort();
  }

  /** Round trips so far, over every connection. */
  long turns() {
    return turns.get();
  }

  /** Bytes from clients to the server so far. */
  long bytesUp() {
    return bytesUp.get();
  }

  /** Bytes from the server to clients so far. */
  long bytesDown() {
    return bytesDown.get();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket upstream = new Socket();
        upstream.connect(server);
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        sockets.add(client);
        sockets.add(upstream);
        AtomicBoolean serverSpoke = new AtomicBoolean(true);
        pump(client, upstream, true, serverSpoke);
        pump(upstream, client, false, serverSpoke);
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void pump(Socket from, Socket to, boolean up, AtomicBoolean serverSpoke) throws IOException {
    InputStream in = from.getInputStream();
    OutputStream out = to.getOutputStream();
    Thread thread = new Thread(() -> {
      byte[] buffer = new byte[BUFFER];
      try {
        for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
          if (up) {
            if (serverSpoke.getAndSet(false)) {
              turns.incrementAndGet();
            }
            bytesUp.addAndGet(read);
          } else {
            serverSpoke.set(true);
            bytesDown.addAndGet(read);
          }
          out.write(buffer, 0, read);
          out.flush();
        }
      } catch (IOException e) {
        // The other side closed: so does this one.
      } finally {
        closeQuietly(from);
        closeQuietly(to);
      }
    }, "proxy-" + (up ? "up" : "down"));
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() throws IOException {
    listener.close();
    sockets.forEach(TurnCountingProxy::closeQuietly);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // Closing anyway.
    }
  }
}
