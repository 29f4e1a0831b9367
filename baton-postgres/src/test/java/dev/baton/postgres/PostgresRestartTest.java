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
 * The server restarts while a lock is held and another client waits: the row survives, so the holder keeps the lock
 * and renews it on new connections, and the waiter, whose notification connection came back, gets the lock once it is
 * released, with a larger token.
 */
class PostgresRestartTest {
  private static final Duration TTL = Duration.ofSeconds(3);

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Test
  void aHeldLockSurvivesARestartAndItsWaiterGetsItAfter() throws Exception {
    LockOptions options = LockOptions.builder().ttl(TTL).build();
    try (LockClient holder = PostgresLockClient.connect(postgres.uri());
        LockClient waiter = PostgresLockClient.connect(postgres.uri())) {
      Lease held = holder.lock("restarted", options).acquire(Duration.ofSeconds(5));
      BackgroundCall<Lease> waiting = BackgroundCall.start("waiter",
          () -> waiter.lock("restarted", options).acquire(Duration.ofSeconds(60)));
      waiting.awaitBlocked();

      postgres.server().restart();

      await("the lock held over two ttls of renewals after the restart").during(TTL.multipliedBy(2))
          .atMost(TTL.multipliedBy(3)).until(held::isHeld);
      held.close();
      try (Lease next = waiting.result(Duration.ofSeconds(20))) {
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
      }
    }
  }
}
