package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendUnavailableException;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.Lease;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.PostgresServerExtension;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The server ends every connection of the clients ({@code pg_terminate_backend}, as an administrator or a pooler
 * would): a held lock lives on, as no connection carries it, a waiter is still woken when it is released, and the
 * client's pool finds out at its first failed call, not one call per connection it kept.
 */
class PostgresConnectionLossTest {
  private static final Duration TTL = Duration.ofSeconds(2);
  private static final int IDLE_CONNECTIONS = 3;

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Test
  void aHeldLockOutlivesTheTerminationOfEveryConnectionAndItsWaiterIsStillWoken() throws Exception {
    LockOptions options = LockOptions.builder().ttl(TTL).build();
    try (LockClient holder = PostgresLockClient.connect(postgres.uri());
        LockClient waiter = PostgresLockClient.connect(postgres.uri())) {
      Lease held = holder.lock("terminated", options).acquire(Duration.ofSeconds(5));
      BackgroundCall<Lease> waiting = BackgroundCall.start("waiter",
          () -> waiter.lock("terminated", options).acquire(Duration.ofSeconds(30)));
      waiting.awaitBlocked();

      assertThat(postgres.server().terminateConnections()).as("connections of the clients terminated").isPositive();
      await("the lock held over two ttls of renewals").during(TTL.multipliedBy(2)).atMost(TTL.multipliedBy(3))
          .until(held::isHeld);
      held.close();
      try (Lease next = waiting.result(Duration.ofSeconds(10))) {
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
      }
    }
  }

  @Test
  void afterEveryConnectionIsTerminatedAtMostOneCallFails() throws Exception {
    try (LockClient client = PostgresLockClient.builder().address(postgres.uri())
        .maxIdleConnections(IDLE_CONNECTIONS).connect()) {
      keepIdleConnections(client);

      postgres.server().terminateConnections();

      int failed = 0;
      while (failed <= IDLE_CONNECTIONS && !answers(client)) {
        failed++;
      }
      assertThat(failed).as("calls failed on connections the server had ended").isLessThanOrEqualTo(1);
    }
  }

  /**
   * Leaves the client's pool with {@value #IDLE_CONNECTIONS} idle connections: as many calls, each on a connection of
   * its own, wait together behind a lock of the table, and give their connections back when it is gone.
   */
  private static void keepIdleConnections(LockClient client) throws Exception {
    List<BackgroundCall<Boolean>> calls = new ArrayList<>();
    try (Connection blocker = TestDatabase.inOpenTransaction(postgres.server(),
        "LOCK TABLE baton_locks IN ACCESS EXCLUSIVE MODE")) {
      for (int i = 0; i < IDLE_CONNECTIONS; i++) {
        calls.add(BackgroundCall.start("status-" + i, () -> client.status("idle").isHeld()));
      }
      await("the calls waiting on the table's lock").atMost(Duration.ofSeconds(10)).until(() -> TestDatabase.number(
          postgres.server(), "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
          == IDLE_CONNECTIONS);
    }
    for (BackgroundCall<Boolean> call : calls) {
      assertThat(call.result(Duration.ofSeconds(10))).isFalse();
    }
  }

  private static boolean answers(LockClient client) {
    try {
      client.status("idle");
      return true;
    } catch (BackendUnavailableException e) {
      return false;
    }
  }
}
