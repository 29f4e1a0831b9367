package dev.baton.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.testkit.EtcdClusterExtension;
import dev.baton.testkit.MutualExclusionChecker;
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
 * Killing the cluster's leader while locks are held and waiters queued: no two holders at once, no lost update,
 * and the queue drains once a new leader serves.
 */
class EtcdLeaderKillTest {
  private static final int CLIENTS = 3;
  private static final int THREADS_PER_CLIENT = 2;
  private static final int ROUNDS = 12;
  /** Long enough to ride out an election (about a second with the test kit's settings). */
  private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(5);

  @RegisterExtension
  static final EtcdClusterExtension etcd = new EtcdClusterExtension();

  private final List<LockClient> clients = new ArrayList<>();
  private final ExecutorService workers = Executors.newCachedThreadPool();
  private int killed = -1;

  @AfterEach
  void cleanUp() throws InterruptedException {
    workers.shutdownNow();
    workers.awaitTermination(10, TimeUnit.SECONDS);
    clients.forEach(LockClient::close);
    if (killed >= 0) {
      etcd.cluster().start(killed);
      etcd.cluster().awaitLeader(Duration.ofSeconds(20));
    }
  }

  @RepeatedTest(10)
  @Timeout(60)
  void mutualExclusionHoldsAndTheQueueDrains() throws Exception {
    LockOptions options = LockOptions.defaults().withWaitTime(Duration.ofSeconds(40));
    MutualExclusionChecker checker = new MutualExclusionChecker();
    AtomicInteger finished = new AtomicInteger();
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      LockClient client = EtcdLockClient.builder().endpoints(etcd.endpoints()).sessionTimeout(SESSION_TIMEOUT).connect();
      clients.add(client);
      DistributedLock lock = client.lock("leader-kill");
      for (int t = 0; t < THREADS_PER_CLIENT; t++) {
        done.add(CompletableFuture.runAsync(() -> contend(lock, options, checker, finished), workers));
      }
    }
    await().atMost(Duration.ofSeconds(20)).until(() -> finished.get() >= 4);

    killed = etcd.cluster().killLeader();
    etcd.cluster().awaitLeader(Duration.ofSeconds(20));

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
