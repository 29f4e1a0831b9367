package dev.baton.postgres;

import dev.baton.LockClient;
import dev.baton.testkit.LockClientSoak;
import dev.baton.testkit.PostgresServerExtension;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Thousands of per-order keys on one PostgreSQL server: no row of the lock table left behind by a released key, and
 * none by a crashed client once the store states how long its rows may stay.
 */
class PostgresSoakTest extends LockClientSoak {
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  /** The lock table is made on first use: made before the soak counts its rows. */
  @BeforeAll
  static void makeTheTable() throws InterruptedException {
    try (LockClient client = new PostgresClientFactory().connect(postgres.uri())) {
      client.lock("soak/table").acquire(Duration.ofSeconds(10)).close();
    }
  }

  @Override
  protected Class<? extends LockClientFactory> factoryClass() {
    return PostgresClientFactory.class;
  }

  @Override
  protected String target() {
    return postgres.uri();
  }

  @Override
  protected Map<String, Long> storeInventory() {
    return Map.of("rows", TestDatabase.number(postgres.server(), "SELECT count(*) FROM baton_locks"));
  }

  /** A release deletes its row, and a waiter that gives up deletes its own: nothing waits for an expiry. */
  @Override
  protected Duration leftoverBound() {
    return Duration.ZERO;
  }

  /**
   * A crashed client's rows expire one ttl after their last renewal (or a waiter's last try), and the running client's
   * sweep deletes them at most {@link PostgresLockClient#DEFAULT_SWEEP_EVERY} later.
   */
  @Override
  protected Optional<Duration> crashedClientBound() {
    return Optional.of(crashedClientTtl().plus(PostgresLockClient.DEFAULT_SWEEP_EVERY));
  }

  /**
   * 5 s rather than the soak's 1 s: a waiter keeps its waiting row alive with a transaction every third of its ttl,
   * so at 1 s a crashed client's waiters alone would cost hundreds of transactions a second, more than a loaded
   * 2-core machine serves beside the rest; a service's ttl (30 s by default) costs a hundredth of that.
   */
  @Override
  protected Duration crashedClientTtl() {
    return Duration.ofSeconds(5);
  }

  /** Every entry costs a transaction to take and to keep: fewer keys keep the round within a minute. */
  @Override
  protected int crashKeysPerKind() {
    return 10;
  }

  /** Every acquisition is a committed transaction: fewer keys keep the soak within a minute. */
  @Override
  protected int uncontendedKeys() {
    return 1_000;
  }
}
