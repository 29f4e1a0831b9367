import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.redisson.Redisson;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson in a JVM of its own, as a fleet's old instances run it: {@code getLock(NAME)} and {@code getFencedLock(NAME)}
 * on one name, driven by one command a line on standard input, answering on standard output. Run as a source file
 * ({@code java -cp REDISSON RedissonPeer.java ...}) on Redisson's own class path, which Baton's cannot share.
 *
 * <ul>
 *   <li>{@code HOLD}: {@code lock()} (waiting as long as it takes), answers {@code HELD};
 *   <li>{@code RELEASE}: unlocks what {@code HOLD} took, answers {@code RELEASED};
 *   <li>{@code COUNT THREADS TIMES PAUSE_MS FILE}: each of THREADS threads, TIMES times, {@code lock()}s, reads the
 *       number in FILE, pauses, writes it plus one and unlocks; answers {@code COUNTED};
 *   <li>{@code TOKENS THREADS TIMES FILE}: each of THREADS threads, TIMES times, takes the fenced lock with
 *       {@code lockAndGetToken()}, appends {@code redisson TOKEN} to FILE and unlocks; answers {@code LOGGED}.
 * </ul>
 *
 * <p>Arguments: the server's address ({@code redis://host:port}), the lock's name and the watchdog's timeout in ms, the
 * expiry of a lock held without a lease time (renewed every third of it while held).
 */
public final class RedissonPeer {
  private RedissonPeer() {}

  public static void main(String[] args) throws Exception {
    Config config = new Config();
    config.useSingleServer().setAddress(args[0]);
    config.setLockWatchdogTimeout(Long.parseLong(args[2]));
    RedissonClient redisson = Redisson.create(config);
    try {
      String name = args[1];
      RLock held = redisson.getLock(name);
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      System.out.println("READY");
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] words = line.split(" ");
        switch (words[0]) {
          case "HOLD" -> {
            held.lock();
            System.out.println("HELD");
          }
          case "RELEASE" -> {
            held.unlock();
            System.out.println("RELEASED");
          }
          case "COUNT" -> {
            long pauseMillis = Long.parseLong(words[3]);
            Path file = Path.of(words[4]);
            run(Integer.parseInt(words[1]), Integer.parseInt(words[2]), () -> {
              RLock lock = redisson.getLock(name);
              lock.lock();
              try {
                increment(file, pauseMillis);
              } finally {
                lock.unlock();
              }
            });
            System.out.println("COUNTED");
          }
          case "TOKENS" -> {
            Path file = Path.of(words[3]);
            run(Integer.parseInt(words[1]), Integer.parseInt(words[2]), () -> {
              RFencedLock lock = redisson.getFencedLock(name);
              Long token = lock.lockAndGetToken();
              try {
                Files.writeString(file, "redisson " + token + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
              } finally {
                lock.unlock();
              }
            });
            System.out.println("LOGGED");
          }
          default -> throw new IllegalArgumentException("Unknown command: " + line);
        }
      }
    } finally {
      redisson.shutdown();
    }
  }

  /** One turn of a worker: takes the lock, does its work under it, releases it. */
  private interface Turn {
    void take() throws Exception;
  }

  /** Runs {@code times} turns on each of {@code threads} threads and waits for all of them. */
  private static void run(int threads, int times, Turn turn) throws InterruptedException {
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread worker = new Thread(() -> {
        for (int i = 0; i < times; i++) {
          try {
            turn.take();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      }, "redisson-worker-" + t);
      worker.start();
      workers.add(worker);
    }
    for (Thread worker : workers) {
      worker.join();
    }
  }

  /** A read, a pause in which a second holder would read the same value, and a write. */
  private static void increment(Path file, long pauseMillis) throws IOException, InterruptedException {
    long value = Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).strip());
    Thread.sleep(pauseMillis);
    Files.writeString(file, Long.toString(value + 1), StandardCharsets.UTF_8);
  }
}
