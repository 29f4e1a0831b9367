package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockClient;
import dev.baton.Lease;
import dev.baton.testkit.PostgresServerExtension;
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
 * backwards (a hand-over between threads of one client keeps its token), and the server logs no error all the while:
 * on the table the client creates, and on one made by the DDL of earlier versions.
 */
class PostgresCounterTest {
  private static final int CLIENTS = 4;
  private static final int THREADS_PER_CLIENT = 2;
  private static final int INCREMENTS = 25;

  /** The table of versions before the claim read the key once: it also had a unique index on the owner ids. */
  private static final String EARLIER_TABLE = "CREATE TABLE earlier_locks (lock_key text NOT NULL,"
      + " entry_id bigint NOT NULL, owner_id text NOT NULL, holder text NOT NULL, mode text NOT NULL,"
      + " capacity integer NOT NULL, expires_at timestamptz NOT NULL, contended boolean NOT NULL DEFAULT false,"
      + " PRIMARY KEY (lock_key, entry_id), UNIQUE (lock_key, owner_id));"
      + " CREATE SEQUENCE earlier_locks_fencing";

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  /** Read and written only under the lock, without any other synchronization. */
  private long counter;
  private long lastToken;
  private boolean tokensNeverWentBack = true;

  @Test
  void aCounterUpdatedByReadPauseWriteUnderTheLockIsExact() throws Exception {
    countUnderTheLock(PostgresLockClient.DEFAULT_TABLE);
  }

  @Test
  void theCounterIsExactOnATableMadeByTheEarlierDdl() throws Exception {
    TestDatabase.update(postgres.server(), EARLIER_TABLE);

    countUnderTheLock("earlier_locks");
  }

  private void countUnderTheLock(String table) throws Exception {
    List<LockClient> clients = new ArrayList<>();
    ExecutorService threads = Executors.newFixedThreadPool(CLIENTS * THREADS_PER_CLIENT);
    try {
      for (int i = 0; i < CLIENTS; i++) {
        clients.add(PostgresLockClient.builder().address(postgres.uri()).table(table).connect());
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
    assertThat(TestDatabase.number(postgres.server(), "SELECT count(*) FROM " + table)).isZero();
    assertThat(postgres.server().logTail()).doesNotContain("ERROR").doesNotContain("FATAL");
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
