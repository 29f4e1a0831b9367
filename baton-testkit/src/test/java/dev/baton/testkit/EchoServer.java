package dev.baton.testkit;

import dev.baton.embedded.internal.Loopback;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A loopback server that sends back every byte it receives, one daemon thread per connection. */
final class EchoServer implements AutoCloseable {
  private final ServerSocket listener;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;

  EchoServer() throws IOException {
    listener = new ServerSocket(0, 50, InetAddress.getByName(Loopback.HOST));
    acceptor = new Thread(this::acceptAll, "echo-" + port() + "-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  /** Connections the server has not yet seen end. */
  int openConnections() {
    return open.size();
  }

  @Override
  public void close() throws IOException {
    listener.close();
    try {
      acceptor.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Socket socket : open) {
      socket.close();
    }
  }

  private void acceptAll() {
    try {
      while (true) {
        Socket socket = listener.accept();
        open.add(socket);
        Thread echo = new Thread(() -> echo(socket), "echo-" + port() + "-connection");
        echo.setDaemon(true);
        echo.start();
      }
    } catch (IOException closed) {
      // The listener was closed: stop accepting.
    }
  }

  private void echo(Socket socket) {
    try (socket) {
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      byte[] buffer = new byte[1024];
      for (int length = in.read(buffer); length != -1; length = in.read(buffer)) {
        out.write(buffer, 0, length);
      }
    } catch (IOException closedOrReset) {
      // The connection is over either way.
    } finally {
      open.remove(socket);
    }
  }
}
