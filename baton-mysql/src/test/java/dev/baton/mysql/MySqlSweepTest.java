package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.testkit.MariaDbServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The rows of a crashed client go by themselves: every running client deletes expired entries of any key in the
 * background ({@code sweep-read.sql}, {@code sweep.sql}) without anyone acquiring those keys, and never a live one,
 * nor does it deadlock with the releases of live ones.
 */
class MySqlSweepTest {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Test
  void expiredRowsOfAnyKeyAreDeletedAndLiveOnesKept() {
    try (LockClient sweeping = MySqlLockClient.builder().address(mariadb.uri()).sweepEvery(Duration.ofMillis(10))
        .connect()) {
      TestDatabase.execute(mariadb.server(), "INSERT INTO baton_locks (lock_key, entry_id, owner_id, holder, mode,"
          + " capacity, expires_at) VALUES ('crashed/holder', 1, 'gone', '', 'EXCLUSIVE', 1,"
          + " UTC_TIMESTAMP(6) - INTERVAL 1 SECOND), ('crashed/waiter', 2, 'gone', '', 'PERMIT', 2,"
          + " UTC_TIMESTAMP(6) - INTERVAL 1 SECOND), ('alive', 3, 'alive', '', 'EXCLUSIVE', 1,"
          + " UTC_TIMESTAMP(6) + INTERVAL 1 HOUR)");
      await().atMost(Duration.ofSeconds(20))
          .untilAsserted(() -> assertThat(TestDatabase.rowsUnder(mariadb.server(), "crashed/")).isZero());
      assertThat(TestDatabase.rowsUnder(mariadb.server(), "alive")).isOne();
      assertThat(sweeping.status("alive").isHeld()).isTrue();
    }
  }

  /**
   * Eight threads on eight keys lock and unlock as fast as they can while the client sweeps every 10 ms. A sweep that
   * deleted through the expiry index locked the first live entry's index record past its range before that entry's row,
   * the other way round from the entry's release: 37 deadlocks in 15 s with a sweep every 50 ms, each logged by the
   * driver as a warning.
   */
  @Test
  void aSweepDoesNotDeadlockWithReleases() throws Exception {
    long deadlocks = TestDatabase.status(mariadb.server(), "Innodb_deadlocks");
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try (LockClient client = MySqlLockClient.builder().address(mariadb.uri()).sweepEvery(Duration.ofMillis(10))
        .connect()) {
      List<Future<Integer>> loops = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        String key = "sweep/spread-" + t;
        loops.add(threads.submit(() -> {
          int cycles = 0;
          while (System.nanoTime() - end < 0) {
            try (Lease lease = client.lock(key).acquire(Duration.ofSeconds(30))) {
              cycles++;
            }
          }
          return cycles;
        }));
      }
      int cycles = 0;
      for (Future<Integer> loop : loops) {
        cycles += loop.get(60, TimeUnit.SECONDS);
      }
      assertThat(cycles).isPositive();
    } finally {
      threads.shutdownNow();
    }
    assertThat(TestDatabase.status(mariadb.server(), "Innodb_deadlocks") - deadlocks).as("deadlocks").isZero();
  }
}
