package dev.baton.postgres;

import dev.baton.LockClient;
import dev.baton.testkit.LockClientFactory;
import dev.baton.testkit.LockClientSoak;
import dev.baton.testkit.PostgresServerExtension;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Thousands of per-order keys on one PostgreSQL server: no row of the lock table left behind by a released key, and
 * none by a crashed client once its rows have lapsed and the running client's sweep has come by.
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
   * A crashed client's rows lapse one ttl ({@link #TTL}, which the crashed client uses) after their last renewal, and
   * the running client's sweep deletes them at most {@link PostgresLockClient#DEFAULT_SWEEP_EVERY} later.
   */
  @Override
  protected Optional<Duration> crashedClientBound() {
    return Optional.of(TTL.plus(PostgresLockClient.DEFAULT_SWEEP_EVERY));
  }

  /** Every acquisition is a committed transaction: fewer keys keep the soak within a minute. */
  @Override
  protected int uncontendedKeys() {
    return 1_000;
  }
}
