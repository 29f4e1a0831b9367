package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.testkit.PostgresServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Renewals go out in batches: a client holding hundreds of leases at a short ttl keeps them all with far fewer
 * statements than leases, and a batch renews only the entries that have not expired.
 */
class PostgresRenewalTest {
  private static final Duration TTL = Duration.ofSeconds(1);
  private static final int LEASES = 300;

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  /**
   * Counts the statements by the transaction ids the server handed out: every statement that changes a row takes one,
   * and over three ttls nothing but the renewals changes a row (the sweep finds nothing expired). One statement per
   * renewal would take {@value #LEASES} ids a round, about nine rounds.
   */
  @Test
  void manyLeasesAreKeptWithFarFewerStatementsThanLeases() throws Exception {
    LockOptions options = LockOptions.builder().ttl(TTL).build();
    try (LockClient client = PostgresLockClient.connect(postgres.uri())) {
      List<Lease> leases = new ArrayList<>();
      for (int i = 0; i < LEASES; i++) {
        leases.add(client.lock("many/" + i, options).acquire(Duration.ofSeconds(10)));
      }
      long before = transactionId();
      await("every lease held over three ttls of renewals").during(TTL.multipliedBy(3))
          .atMost(TTL.multipliedBy(3).plusSeconds(10)).until(() -> leases.stream().allMatch(Lease::isHeld));
      long statements = transactionId() - before - 1;
      System.out.printf("PostgresRenewalTest: %d leases at a %d ms ttl renewed over three ttls in %d statements%n",
          LEASES, TTL.toMillis(), statements);
      assertThat(statements).as("statements that renewed %d leases over three ttls", LEASES).isLessThan(LEASES);
      leases.forEach(Lease::close);
    }
  }

  @Test
  void aBatchRenewsTheEntriesThatHaveNotExpiredAndNotTheOneThatHas() throws Exception {
    LockOptions options = LockOptions.builder().ttl(TTL).build();
    try (LockClient client = PostgresLockClient.connect(postgres.uri())) {
      List<Lease> kept = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        kept.add(client.lock("batch/kept-" + i, options).acquire(Duration.ofSeconds(10)));
      }
      Lease expiring = client.lock("batch/expired", options).acquire(Duration.ofSeconds(10));

      assertThat(TestDatabase.update(postgres.server(), "UPDATE baton_locks SET expires_at = clock_timestamp()"
          + " - interval '1 second' WHERE lock_key = 'batch/expired'")).isEqualTo(1);

      await("the expired entry's lease lost").atMost(TTL.multipliedBy(3).plusSeconds(10))
          .until(() -> expiring.state() == LeaseState.LOST);
      assertThat(TestDatabase.number(postgres.server(), "SELECT count(*) FROM baton_locks"
          + " WHERE lock_key = 'batch/expired' AND expires_at >= clock_timestamp()")).as("the expired entry renewed")
          .isZero();
      await("the other leases held over two ttls of renewals").during(TTL.multipliedBy(2))
          .atMost(TTL.multipliedBy(2).plusSeconds(10)).until(() -> kept.stream().allMatch(Lease::isHeld));
      kept.forEach(Lease::close);
    }
  }

  /** The next transaction id, which this read takes. */
  private static long transactionId() {
    return TestDatabase.number(postgres.server(), "SELECT pg_current_xact_id()::text::bigint");
  }
}
