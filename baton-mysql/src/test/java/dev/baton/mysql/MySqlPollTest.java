package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.testkit.BackgroundCall;
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
 * The adaptive poll of a waiter in another client: once the lock has been held for a while it reads the key about once
 * per {@code maxPollInterval}, not in a busy loop, and a release reaches it within about one interval; on a hot key
 * that several clients pass around, it looks often enough that the key changes hands many times a second.
 */
class MySqlPollTest {
  private static final Duration MAX_POLL = Duration.ofMillis(100);
  private static final Duration HELD_FOR = Duration.ofSeconds(2);
  /** How long after the queue last moved a waiter still looks at the busy rate, and a margin. */
  private static final Duration BUSY = Duration.ofNanos(MySqlAttempt.BUSY_NANOS).plusMillis(200);
  private static final int HOT_CLIENTS = 4;
  private static final int HOT_ACQUIRES = 50;

  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Test
  void aWaiterPollsAtTheBoundAndGetsTheLockWithinAboutOneInterval() throws Exception {
    try (LockClient holder = MySqlLockClient.connect(mariadb.uri());
        LockClient waiter = MySqlLockClient.builder().address(mariadb.uri()).maxPollInterval(MAX_POLL).connect()) {
      Lease held = holder.lock("polled").acquire(Duration.ofSeconds(5));
      BackgroundCall<Lease> waiting = BackgroundCall.start("waiter",
          () -> waiter.lock("polled").acquire(Duration.ofSeconds(30)));
      waiting.awaitBlocked();
      await("the waiter waiting past the busy window").during(BUSY).atMost(BUSY.plusSeconds(5))
          .until(() -> !waiting.isDone());
      long selectsBefore = TestDatabase.status(mariadb.server(), "Com_select");
      long start = System.nanoTime();
      await("the waiter still waiting while the lock is held").during(HELD_FOR).atMost(HELD_FOR.plusSeconds(5))
          .until(() -> !waiting.isDone());
      long selects = TestDatabase.status(mariadb.server(), "Com_select") - selectsBefore;
      long millis = (System.nanoTime() - start) / 1_000_000;
      // One read per interval, and the two reads of counting itself.
      assertThat(selects).as("reads in %d ms at one per %d ms", millis, MAX_POLL.toMillis())
          .isLessThanOrEqualTo(millis / MAX_POLL.toMillis() + 4);
      long released = System.nanoTime();
      held.close();
      try (Lease next = waiting.result(Duration.ofSeconds(5))) {
        long handOverMillis = (System.nanoTime() - released) / 1_000_000;
        assertThat(handOverMillis).as("from the release to the waiter's grant").isLessThan(MAX_POLL.toMillis() * 5);
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
      }
    }
  }

  @Test
  void aHotKeyPassesBetweenClientsManyTimesASecond() throws Exception {
    List<LockClient> clients = new ArrayList<>();
    ExecutorService threads = Executors.newFixedThreadPool(HOT_CLIENTS);
    try {
      for (int i = 0; i < HOT_CLIENTS; i++) {
        clients.add(MySqlLockClient.connect(mariadb.uri()));
      }
      long start = System.nanoTime();
      List<Future<?>> done = new ArrayList<>();
      for (LockClient client : clients) {
        done.add(threads.submit(() -> {
          for (int i = 0; i < HOT_ACQUIRES; i++) {
            client.lock("hot").acquire(Duration.ofSeconds(60)).close();
          }
          return null;
        }));
      }
      for (Future<?> future : done) {
        future.get();
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      // About 80 a second on a 2-core machine; at the longest interval (250 ms) it would be 4 to 8.
      assertThat(HOT_CLIENTS * HOT_ACQUIRES * 1000L / Math.max(1, millis)).as("hand-overs a second")
          .isGreaterThan(20);
    } finally {
      threads.shutdownNow();
      clients.forEach(LockClient::close);
    }
  }
}
