package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockClient;
import dev.baton.testkit.MariaDbServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The rows of a crashed client go by themselves: every running client deletes expired entries of any key in the
 * background ({@code sweep.sql}) without anyone acquiring those keys, and never a live one.
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
}
