package dev.baton.embedded.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * Free ports and listening checks on the loopback address, where every embedded and test server listens. Baton's own
 * plumbing, shared by {@code baton-embedded}, {@code baton-servers}, {@code baton-torture} and Baton's tests: not API,
 * and it may change in any release.
 */
public final class Loopback {
  /** The address every server and proxy of the test kit binds to. */
  public static final String HOST = "127.0.0.1";

  private static final int CONNECT_TIMEOUT_MILLIS = 1000;

  private Loopback() {}

  /** A port that was free a moment ago; another process may still take it before the caller binds it. */
  public static int freePort() {
    return freePorts(1)[0];
  }

  /** {@code count} distinct ports that were free a moment ago (all held open at once, so never the same twice). */
  public static int[] freePorts(int count) {
    List<ServerSocket> held = new ArrayList<>(count);
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST));
        held.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not find " + count + " free loopback ports: " + e.getMessage(), e);
    } finally {
      for (ServerSocket socket : held) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // Closing an unconnected server socket does not fail in practice; the port is free either way.
        }
      }
    }
  }

  /** Whether something accepts connections on {@code 127.0.0.1:port} (checked by connecting, within 1 s). */
  public static boolean isListening(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(HOST, port), CONNECT_TIMEOUT_MILLIS);
      return true;
    } catch (ConnectException refused) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not tell whether port " + port + " listens: " + e.getMessage(), e);
    }
  }
}
