package dev.baton.torture;

import dev.baton.embedded.internal.Loopback;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The shared register the workers update with a read-pause-write, served on a loopback port by the process
 * that runs the torture (never faulted). It is fenced: it remembers the highest token it has seen and rejects
 * a read or a write with a lower one, as a store that checks fencing tokens on every access does (checking
 * writes only would let a paused holder's write land between the next holder's read and write). A write
 * names the value it read; an accepted write whose value read is not the current value is a lost update.
 *
 * <p>Readers of a read-write lock hold together, each with a token of its own, so a shared read is fenced by the
 * highest token of an exclusive access only (a reader granted before the last writer is stale; one granted beside
 * another reader is not), and raises the fence of exclusive accesses as any access does (a writer granted before a
 * reader that has read is stale).
 *
 * <p>Protocol, one line each way: {@code READ token} (a holder alone) and {@code READ_SHARED token} (a reader)
 * answer {@code VALUE v nanos} or {@code REJECTED highest}; {@code WRITE token read worker} (the new value is
 * {@code read + 1}) answers {@code OK nanos} or {@code REJECTED highest}. {@code nanos} is when the register served the request ({@link System#nanoTime()}
 * on this host): a worker paused between the register's answer and its own record of it still records
 * when its read or write really happened.
 */
final class FencedRegister implements AutoCloseable {
  private final ServerSocket socket;
  private final Thread acceptor;
  private final List<Socket> connections = new ArrayList<>();
  private final List<AcceptedWrite> accepted = new ArrayList<>();
  private long value;
  private long highest = Long.MIN_VALUE;
  private long highestExclusive = Long.MIN_VALUE;
  private long rejected;
  private long lostUpdates;

  /** One write the register took: the token, the worker, and whether it overwrote a write it never read. */
  record AcceptedWrite(long token, String worker, boolean lostUpdate) {}

  FencedRegister() {
    try {
      socket = new ServerSocket(0, 50, InetAddress.getByName(Loopback.HOST));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open the register's port on " + Loopback.HOST, e);
    }
    acceptor = new Thread(this::accept, "torture-register");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return socket.getLocalPort();
  }

  synchronized long value() {
    return value;
  }

  synchronized long rejected() {
    return rejected;
  }

  synchronized long lostUpdates() {
    return lostUpdates;
  }

  synchronized List<AcceptedWrite> accepted() {
    return List.copyOf(accepted);
  }

  synchronized String handle(String line) {
    String[] words = line.trim().split(" ");
    if (words[0].equals("READ") && words.length == 2) {
      long token = Long.parseLong(words[1]);
      if (token < highest) {
        rejected++;
        return "REJECTED " + highest;
      }
      highest = token;
      highestExclusive = token;
      return "VALUE " + value + " " + System.nanoTime();
    }
    if (words[0].equals("READ_SHARED") && words.length == 2) {
      long token = Long.parseLong(words[1]);
      if (token < highestExclusive) {
        rejected++;
        return "REJECTED " + highestExclusive;
      }
      highest = Math.max(highest, token);
      return "VALUE " + value + " " + System.nanoTime();
    }
    if (words[0].equals("WRITE") && words.length == 4) {
      long token = Long.parseLong(words[1]);
      long read = Long.parseLong(words[2]);
      if (token < highest) {
        rejected++;
        return "REJECTED " + highest;
      }
      boolean lost = read != value;
      if (lost) {
        lostUpdates++;
      }
      highest = token;
      highestExclusive = token;
      value = read + 1;
      accepted.add(new AcceptedWrite(token, words[3], lost));
      return "OK " + System.nanoTime();
    }
    return "ERROR unknown request: " + line;
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        synchronized (connections) {
          connections.add(connection);
        }
        Thread serving = new Thread(() -> serve(connection), "torture-register-" + connection.getPort());
        serving.setDaemon(true);
        serving.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket connection) {
    try (connection;
        BufferedReader in = new BufferedReader(new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(connection.getOutputStream(), true, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.println(handle(line));
      }
    } catch (IOException e) {
      // The worker went away (killed): its connection ends with it.
    }
  }

  @Override
  public void close() {
    try {
      socket.close();
      synchronized (connections) {
        for (Socket connection : connections) {
          connection.close();
        }
      }
      acceptor.join(5_000);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
