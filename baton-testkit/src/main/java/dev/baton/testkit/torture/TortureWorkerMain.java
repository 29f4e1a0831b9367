package dev.baton.testkit.torture;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockException;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.embedded.Loopback;
import dev.baton.testkit.LockClientFactory;
import dev.baton.testkit.torture.History.Kind;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One torture worker, in a JVM of its own: it loops acquiring the key with a wait timeout, reads the fenced
 * register, pauses (the work done under the lock), writes the value it read plus one with its fencing token,
 * and releases; every step goes to its history file. It prints {@code HELD token} and {@code FREE} so that the
 * torture knows whom to pause or kill, and stops after its current hold when its standard input ends.
 *
 * <p>Arguments: {@code factoryClass target key ttlMillis waitMillis workMillis registerPort historyFile name}.
 */
public final class TortureWorkerMain {
  private static final Duration BACK_OFF = Duration.ofMillis(100);

  private final String factory;
  private final String target;
  private final String key;
  private final Duration ttl;
  private final Duration wait;
  private final long workMillis;
  private final String name;
  private final PrintWriter history;
  private final PrintWriter register;
  private final BufferedReader registerAnswers;
  private volatile boolean stopping;

  private TortureWorkerMain(String[] args) throws IOException {
    factory = args[0];
    target = args[1];
    key = args[2];
    ttl = Duration.ofMillis(Long.parseLong(args[3]));
    wait = Duration.ofMillis(Long.parseLong(args[4]));
    workMillis = Long.parseLong(args[5]);
    Socket socket = new Socket(Loopback.HOST, Integer.parseInt(args[6]));
    register = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
    registerAnswers = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    history = new PrintWriter(Files.newBufferedWriter(Path.of(args[7]), StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), true);
    name = args[8];
  }

  /** Runs the worker; see the class comment for the arguments. */
  public static void main(String[] args) throws Exception {
    if (args.length != 9) {
      throw new IllegalArgumentException("Expected factoryClass target key ttlMillis waitMillis workMillis"
          + " registerPort historyFile name, but got " + args.length + " arguments.");
    }
    TortureWorkerMain worker = new TortureWorkerMain(args);
    Thread stdin = new Thread(worker::stopAtEndOfInput, "torture-stdin");
    stdin.setDaemon(true);
    stdin.start();
    worker.run();
    System.exit(0);
  }

  private void run() throws InterruptedException, ReflectiveOperationException {
    LockClientFactory clients = Class.forName(factory).asSubclass(LockClientFactory.class)
        .getDeclaredConstructor().newInstance();
    LockClient client = null;
    while (!stopping) {
      try {
        if (client == null) {
          client = clients.connect(target); // the store may be in the middle of a fault: try until it answers
        }
        holdOnce(client, client.defaultOptions().withTtl(ttl).withWaitTime(wait));
      } catch (LockTimeoutException e) {
        record(Kind.TIMEOUT, 0, "-");
      } catch (IOException | RuntimeException e) {
        record(Kind.ERROR, 0, e.toString());
        Thread.sleep(BACK_OFF.toMillis()); // the store is down: do not spin against it
      }
    }
    if (client != null) {
      client.close();
    }
  }

  private void holdOnce(LockClient client, LockOptions options) throws IOException, InterruptedException {
    record(Kind.ASK, 0, "-");
    Lease lease = client.lock(key).acquire(options);
    long token = lease.fencingToken();
    record(Kind.GRANT, token, lease.ownerId());
    lease.onLost(reason -> record(Kind.LOST, token, String.valueOf(reason)));
    System.out.println("HELD " + token);
    try {
      String value = ask("READ " + token);
      if (!value.startsWith("VALUE ")) {
        record(Kind.WRITE_REJECTED, token, value); // fenced off before it could even read
        return;
      }
      String[] words = value.split(" ");
      record(Long.parseLong(words[2]), Kind.READ, token, value);
      long read = Long.parseLong(words[1]);
      Thread.sleep(ThreadLocalRandom.current().nextLong(1, workMillis + 1));
      String answer = ask("WRITE " + token + " " + read + " " + name);
      if (answer.startsWith("OK ")) {
        record(Long.parseLong(answer.substring("OK ".length())), Kind.WRITE_OK, token, "OK");
      } else {
        record(Kind.WRITE_REJECTED, token, answer);
      }
    } finally {
      record(Kind.RELEASE, token, "-");
      System.out.println("FREE");
      try {
        lease.close();
      } catch (LockException e) {
        record(Kind.ERROR, token, "release: " + e);
      }
    }
  }

  private String ask(String request) throws IOException {
    register.println(request);
    String answer = registerAnswers.readLine();
    if (answer == null) {
      throw new IOException("The register closed the connection");
    }
    return answer;
  }

  private void record(Kind kind, long token, String detail) {
    record(System.nanoTime(), kind, token, detail);
  }

  private synchronized void record(long nanos, Kind kind, long token, String detail) {
    history.println(History.line(nanos, kind, token, detail));
  }

  private void stopAtEndOfInput() {
    try {
      System.in.transferTo(OutputStream.nullOutputStream());
    } catch (IOException e) {
      // An unreadable input counts as ended: the torture is over or gone.
    }
    stopping = true;
  }
}
