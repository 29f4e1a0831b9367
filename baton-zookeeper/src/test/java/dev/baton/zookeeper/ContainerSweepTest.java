package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.DistributedLock;
import dev.baton.LockClient;
import dev.baton.embedded.EmbeddedZooKeeper;
import dev.baton.testkit.BackgroundCall;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server's container sweep deletes empty lock paths and their empty ancestors while clients create them
 * again: a path made by one of our creates may be gone by the next. Here the sweep runs every 10 ms over keys
 * three segments deep, so that it often strikes between two creates; a try must then try again, not fail.
 */
@Timeout(60)
class ContainerSweepTest {
  private static final String SWEEP_INTERVAL_PROPERTY = "znode.container.checkIntervalMs";

  private static EmbeddedZooKeeper server;

  @BeforeAll
  static void startWithAFastSweep() {
    String before = System.getProperty(SWEEP_INTERVAL_PROPERTY);
    System.setProperty(SWEEP_INTERVAL_PROPERTY, "10");
    try {
      server = new EmbeddedZooKeeper();
      server.start();
    } finally {
      if (before == null) {
        System.clearProperty(SWEEP_INTERVAL_PROPERTY);
      } else {
        System.setProperty(SWEEP_INTERVAL_PROPERTY, before);
      }
    }
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  @Test
  void triesOnPathsTheSweepRemovesNeverFail() throws Exception {
    int threads = 4;
    int triesPerThread = 400;
    Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<LockClient> clients = List.of(connect(), connect());
    try {
      List<BackgroundCall<Integer>> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        LockClient client = clients.get(t % clients.size());
        workers.add(BackgroundCall.start("sweep-tryLock-" + t, () -> {
          int taken = 0;
          for (int i = 0; i < triesPerThread; i++) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            DistributedLock lock = client.lock("sweep/" + random.nextInt(3) + "/" + random.nextInt(3) + "/" + random.nextInt(3));
            try {
              if (lock.tryLock()) {
                taken++;
                lock.unlock();
              }
            } catch (RuntimeException e) {
              failures.add(e);
            }
          }
          return taken;
        }));
      }
      int taken = 0;
      for (BackgroundCall<Integer> worker : workers) {
        taken += worker.result(Duration.ofSeconds(50));
      }
      assertThat(failures).as("failed tries").isEmpty();
      assertThat(taken).as("tries that took the lock").isPositive();
    } finally {
      clients.forEach(LockClient::close);
    }
  }

  private static LockClient connect() {
    return ZooKeeperLockClient.builder().connectString(server.connectString()).sessionTimeout(Duration.ofSeconds(5)).connect();
  }
}
