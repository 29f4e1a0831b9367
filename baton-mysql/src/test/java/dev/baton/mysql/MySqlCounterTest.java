package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.testkit.MariaDbServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Mutual exclusion where it counts: clients that each read a shared counter, pause, and write it back plus one, under
 * the lock. A second holder at any moment would lose an update. The fencing tokens seen inside the lock never go
 * backwards (a hand-over between threads of one client keeps its token), no row is left, and the server logs no
 * error all the while.
 */
class MySqlCounterTest {
  private static final int CLIENTS = 4;
  private static final int THREADS_PER_CLIENT = 2;
  private static final int INCREMENTS = 25;

  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  /** Read and written only under the lock, without any other synchronization. */
  private long counter;
  private long lastToken;
  private boolean tokensNeverWentBack = true;

  @Test
  void aCounterUpdatedByReadPauseWriteUnderTheLockIsExact() throws Exception {
    List<LockClient> clients = new ArrayList<>();
    ExecutorService threads = Executors.newFixedThreadPool(CLIENTS * THREADS_PER_CLIENT);
    try {
      for (int i = 0; i < CLIENTS; i++) {
        clients.add(MySqlLockClient.connect(mariadb.uri()));
      }
      List<Future<?>> done = new ArrayList<>();
      for (LockClient client : clients) {
        for (int t = 0; t < THREADS_PER_CLIENT; t++) {
          done.add(threads.submit(() -> increment(client)));
        }
      }
      for (Future<?> future : done) {
        future.get();
      }
    } finally {
      threads.shutdownNow();
      clients.forEach(LockClient::close);
    }

    assertThat(counter).isEqualTo((long) CLIENTS * THREADS_PER_CLIENT * INCREMENTS);
    assertThat(tokensNeverWentBack).as("a fencing token went backwards").isTrue();
    assertThat(TestDatabase.rowsUnder(mariadb.server(), "")).as("rows left").isZero();
    assertThat(mariadb.server().logTail()).doesNotContain("[ERROR]");
  }

  private Void increment(LockClient client) throws InterruptedException {
    for (int i = 0; i < INCREMENTS; i++) {
      try (Lease lease = client.lock("counter").acquire(Duration.ofSeconds(60))) {
        tokensNeverWentBack &= lease.fencingToken() >= lastToken;
        lastToken = lease.fencingToken();
        long read = counter;
        Thread.sleep(1); // the pause between read and write in which a second holder would lose an update
        counter = read + 1;
      }
    }
    return null;
  }
}
