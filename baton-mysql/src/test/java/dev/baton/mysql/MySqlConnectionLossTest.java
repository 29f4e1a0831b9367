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
 * The server ends every connection of the clients ({@code KILL CONNECTION}, as an administrator or a proxy would): a
 * held lock lives on, as no connection carries it, and a waiter in another client gets it once it is released.
 */
class MySqlConnectionLossTest {
  private static final Duration TTL = Duration.ofSeconds(2);

  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Test
  void aHeldLockOutlivesTheKillOfEveryConnectionAndItsWaiterGetsIt() throws Exception {
    LockOptions options = LockOptions.builder().ttl(TTL).build();
    try (LockClient holder = MySqlLockClient.connect(mariadb.uri());
        LockClient waiter = MySqlLockClient.connect(mariadb.uri())) {
      Lease held = holder.lock("killed", options).acquire(Duration.ofSeconds(5));
      BackgroundCall<Lease> waiting = BackgroundCall.start("waiter",
          () -> waiter.lock("killed", options).acquire(Duration.ofSeconds(30)));
      waiting.awaitBlocked();

      assertThat(mariadb.server().killConnections()).as("connections of the clients killed").isPositive();
      await("the lock held over two ttls of renewals").during(TTL.multipliedBy(2)).atMost(TTL.multipliedBy(3))
          .until(held::isHeld);
      held.close();
      try (Lease next = waiting.result(Duration.ofSeconds(10))) {
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
      }
    }
  }
}
