package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.testkit.MutualExclusionChecker;
import dev.baton.testkit.ZooKeeperEnsembleExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Killing the ensemble's leader while locks are held and waiters queued: no two holders at once, no lost
 * update, and the queue drains once a new leader serves.
 */
class LeaderKillTest {
  private static final int CLIENTS = 3;
  private static final int THREADS_PER_CLIENT = 2;
  private static final int ROUNDS = 12;

  @RegisterExtension
  static final ZooKeeperEnsembleExtension ensemble = new ZooKeeperEnsembleExtension();

  private final List<LockClient> clients = new ArrayList<>();
  private final ExecutorService workers = Executors.newCachedThreadPool();
  private int killed = -1;

  @AfterEach
  void cleanUp() throws InterruptedException {
    workers.shutdownNow();
    workers.awaitTermination(10, TimeUnit.SECONDS);
    clients.forEach(LockClient::close);
    if (killed >= 0) {
      ensemble.ensemble().start(killed);
    }
  }

  @RepeatedTest(10)
  @Timeout(60)
  void mutualExclusionHoldsAndTheQueueDrains() throws Exception {
    // The session outlives an election, so that holders keep their locks through it.
    LockOptions options = LockOptions.defaults().withWaitTime(Duration.ofSeconds(40));
    MutualExclusionChecker checker = new MutualExclusionChecker();
    AtomicInteger finished = new AtomicInteger();
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      LockClient client = ZooKeeperLockClient.builder().connectString(ensemble.connectString())
          .sessionTimeout(Duration.ofSeconds(8)).connect();
      clients.add(client);
      DistributedLock lock = client.lock("leader-kill");
      for (int t = 0; t < THREADS_PER_CLIENT; t++) {
        done.add(CompletableFuture.runAsync(() -> contend(lock, options, checker, finished), workers));
      }
    }
    await().until(() -> finished.get() >= 4);

    killed = ensemble.ensemble().killLeader();
    ensemble.ensemble().awaitLeader(Duration.ofSeconds(20));

    CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(45, TimeUnit.SECONDS);
    assertThat(checker.mostInsideAtOnce()).as("holders inside at once").isEqualTo(1);
    assertThat(checker.count()).as("updates kept").isEqualTo((long) CLIENTS * THREADS_PER_CLIENT * ROUNDS);
  }

  private static void contend(DistributedLock lock, LockOptions options, MutualExclusionChecker checker,
      AtomicInteger finished) {
    for (int i = 0; i < ROUNDS; i++) {
      try (Lease lease = lock.acquire(options)) {
        checker.criticalSection();
        finished.incrementAndGet();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
