package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.MariaDbServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The server restarts while a lock is held and another client waits: the row survives, so the holder keeps the lock
 * and renews it on new connections, the waiter gets the lock once it is released, and tokens keep growing: the counter
 * is a row, which a restart does not reset.
 */
class MySqlRestartTest {
  private static final Duration TTL = Duration.ofSeconds(3);

  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Test
  void aHeldLockSurvivesARestartAndTokensKeepGrowing() throws Exception {
    LockOptions options = LockOptions.builder().ttl(TTL).build();
    try (LockClient holder = MySqlLockClient.connect(mariadb.uri());
        LockClient waiter = MySqlLockClient.connect(mariadb.uri())) {
      Lease held = holder.lock("restarted", options).acquire(Duration.ofSeconds(5));
      BackgroundCall<Lease> waiting = BackgroundCall.start("waiter",
          () -> waiter.lock("restarted", options).acquire(Duration.ofSeconds(60)));
      waiting.awaitBlocked();

      mariadb.server().restart();

      await("the lock held over two ttls of renewals after the restart").during(TTL.multipliedBy(2))
          .atMost(TTL.multipliedBy(3)).until(held::isHeld);
      held.close();
      try (Lease next = waiting.result(Duration.ofSeconds(20))) {
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
      }
      TestDatabase.updateForKey(mariadb.server(), "DELETE FROM baton_locks WHERE lock_key <> ?", "");
      mariadb.server().restart();
      try (Lease after = holder.lock("another", options).acquire(Duration.ofSeconds(10))) {
        assertThat(after.fencingToken()).as("a token after an emptied table and a restart")
            .isGreaterThan(held.fencingToken() + 1);
      }
    }
  }
}
