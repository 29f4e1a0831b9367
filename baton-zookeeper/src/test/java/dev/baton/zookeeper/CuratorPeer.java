package dev.baton.zookeeper;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.LockInternals;
import org.apache.curator.framework.recipes.locks.Revoker;
import org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver;
import org.apache.curator.retry.RetryOneTime;

/**
 * Curator in a JVM of its own, as a fleet's old instances run it: {@code InterProcessMutex} on one path, driven by
 * one command a line on standard input, answering on standard output.
 *
 * <ul>
 *   <li>{@code HOLD}: acquires (waiting as long as it takes), answers {@code HELD};
 *   <li>{@code HOLD_REVOCABLE}: as {@code HOLD}, the mutex made revocable first: answers {@code REVOKE_REQUESTED} when
 *       someone asks it to release (Curator's {@code __REVOKE__}), and keeps the lock;
 *   <li>{@code RELEASE}: releases what {@code HOLD} took, answers {@code RELEASED};
 *   <li>{@code REVOKE}: asks the oldest holder of the path to release with Curator's {@code Revoker}, answers
 *       {@code REVOKED};
 *   <li>{@code COUNT THREADS TIMES PAUSE_MS FILE}: each of THREADS threads, TIMES times, acquires, reads the number
 *       in FILE, pauses, writes it plus one and releases; answers {@code COUNTED}.
 * </ul>
 *
 * <p>Arguments: the connect string and the lock path.
 */
public final class CuratorPeer {
  private CuratorPeer() {}

  public static void main(String[] args) throws Exception {
    try (CuratorFramework curator = CuratorFrameworkFactory.newClient(args[0], 30_000, 10_000, new RetryOneTime(100))) {
      curator.start();
      if (!curator.blockUntilConnected(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("Curator did not connect to " + args[0]);
      }
      String path = args[1];
      InterProcessMutex held = new InterProcessMutex(curator, path);
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      System.out.println("READY");
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] words = line.split(" ");
        switch (words[0]) {
          case "HOLD" -> {
            held.acquire();
            System.out.println("HELD");
          }
          case "HOLD_REVOCABLE" -> {
            held.makeRevocable(lock -> System.out.println("REVOKE_REQUESTED"));
            held.acquire();
            System.out.println("HELD");
          }
          case "REVOKE" -> {
            List<String> queue = LockInternals.getSortedChildren(curator, path, "lock-",
                new StandardLockInternalsDriver());
            Revoker.attemptRevoke(curator, path + "/" + queue.get(0));
            System.out.println("REVOKED");
          }
          case "RELEASE" -> {
            held.release();
            System.out.println("RELEASED");
          }
          case "COUNT" -> {
            count(curator, path, Integer.parseInt(words[1]), Integer.parseInt(words[2]), Long.parseLong(words[3]),
                Path.of(words[4]));
            System.out.println("COUNTED");
          }
          default -> throw new IllegalArgumentException("Unknown command: " + line);
        }
      }
    }
  }

  private static void count(CuratorFramework curator, String path, int threads, int times, long pauseMillis,
      Path file) throws InterruptedException {
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      InterProcessMutex mutex = new InterProcessMutex(curator, path);
      Thread worker = new Thread(() -> {
        for (int i = 0; i < times; i++) {
          try {
            mutex.acquire();
            try {
              SharedCounter.increment(file, pauseMillis);
            } finally {
              mutex.release();
            }
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      }, "curator-counter-" + t);
      worker.start();
      workers.add(worker);
    }
    for (Thread worker : workers) {
      worker.join();
    }
  }
}
