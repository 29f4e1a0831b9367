package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.Lease;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.PostgresServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The server ends every connection of the clients ({@code pg_terminate_backend}, as an administrator or a pooler
 * would): a held lock lives on, as no connection carries it, and a waiter is still woken when it is released.
 */
class PostgresConnectionLossTest {
  private static final Duration TTL = Duration.ofSeconds(2);

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

      long terminated = TestDatabase.number(postgres.server(), "SELECT count(pg_terminate_backend(pid))"
          + " FROM pg_stat_activity WHERE application_name = 'baton' AND pid <> pg_backend_pid()");

      assertThat(terminated).as("connections of the clients terminated").isPositive();
      await("the lock held over two ttls of renewals").during(TTL.multipliedBy(2)).atMost(TTL.multipliedBy(3))
          .until(held::isHeld);
      held.close();
      try (Lease next = waiting.result(Duration.ofSeconds(10))) {
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
      }
    }
  }
}
