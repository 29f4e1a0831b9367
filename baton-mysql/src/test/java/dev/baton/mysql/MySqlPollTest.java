package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.MariaDbServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The adaptive poll of a waiter in another client: while the lock is held it reads the key about once per
 * {@code maxPollInterval}, not in a busy loop, and a release reaches it within about one interval.
 */
class MySqlPollTest {
  private static final Duration MAX_POLL = Duration.ofMillis(100);
  private static final Duration HELD_FOR = Duration.ofSeconds(2);

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
}
