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
   * None yet, though the store has one: a crashed client's rows lapse one ttl after their last renewal and the running
   * client's sweep deletes them at most {@link PostgresLockClient#DEFAULT_SWEEP_EVERY} later ({@code PostgresSweepTest}
   * checks it at a 5 s ttl). The crash round cannot run at the soak's 1 s {@link #TTL} on a loaded 2-core machine: the
   * crashed client's 160 waiters each try again every third of the ttl to keep their waiting rows alive, about 480
   * transactions a second under the keys' advisory locks, so connection attempts time out, the client's held leases
   * are lost (RENEWAL_FAILED, though their renewals now go out in batches) and its waiting rows lapse before the test
   * sees them. The test is skipped until waiting rows are kept alive as cheaply as held ones.
   */
  @Override
  protected Optional<Duration> crashedClientBound() {
    return Optional.empty();
  }

  /** Every acquisition is a committed transaction: fewer keys keep the soak within a minute. */
  @Override
  protected int uncontendedKeys() {
    return 1_000;
  }
}
