package dev.baton.servers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntPredicate;

/**
 * One client connection through a {@link TcpProxy}: two daemon threads copying bytes, one from the client to the
 * server ({@code requests}), one back ({@code replies}). An end of stream is passed on as a half close; an error
 * on either side, or {@link #close()}, closes both sockets.
 */
final class ProxyConnection {
  private static final int BUFFER_SIZE = 8192;

  private final Socket client;
  private final Socket server;
  private final Thread requests;
  private final Thread replies;
  private final Consumer<ProxyConnection> onEnd;
  private final AtomicInteger pumpsRunning = new AtomicInteger(2);
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * @param deliverReply asked with the length of each chunk the server sends: deliver it (true) or drop it
   * @param onEnd told once, when the connection is closed
   */
  ProxyConnection(
      Socket client, Socket server, String threadPrefix, IntPredicate deliverReply, Consumer<ProxyConnection> onEnd) {
    this.client = client;
    this.server = server;
    this.onEnd = onEnd;
    this.requests = daemon(() -> pump(client, server, length -> true), threadPrefix + "requests");
    this.replies = daemon(() -> pump(server, client, deliverReply), threadPrefix + "replies");
  }

  void start() {
    requests.start();
    replies.start();
  }

  /** Closes both sockets; the threads end as their reads fail. */
  void close() {
    if (closed.compareAndSet(false, true)) {
      TcpProxy.closeQuietly(client);
      TcpProxy.closeQuietly(server);
      onEnd.accept(this);
    }
  }

  /** Waits up to {@code timeout} for both threads to end, after {@link #close()}. */
  void awaitEnd(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean interrupted = false;
    for (Thread thread : new Thread[] {requests, replies}) {
      while (thread.isAlive() && System.nanoTime() < deadline) {
        try {
          thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (requests.isAlive() || replies.isAlive()) {
      throw new IllegalStateException("Proxy threads " + requests.getName() + " and " + replies.getName()
          + " still run " + timeout.toMillis() + " ms after their sockets were closed.");
    }
  }

  private void pump(Socket from, Socket to, IntPredicate deliver) {
    byte[] buffer = new byte[BUFFER_SIZE];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      for (int length = in.read(buffer); length != -1; length = in.read(buffer)) {
        if (deliver.test(length)) {
          out.write(buffer, 0, length);
        }
      }
      to.shutdownOutput();
    } catch (IOException closedOrReset) {
      close();
    } finally {
      if (pumpsRunning.decrementAndGet() == 0) {
        close();
      }
    }
  }

  private static Thread daemon(Runnable body, String name) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    return thread;
  }
}
