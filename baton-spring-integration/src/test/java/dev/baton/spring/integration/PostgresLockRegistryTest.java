package dev.baton.spring.integration;

import dev.baton.LockClient;
import dev.baton.postgres.PostgresLockClient;
import dev.baton.testkit.PostgresServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock registry on a real PostgreSQL server. */
class PostgresLockRegistryTest extends BatonLockRegistryContract {
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Override
  protected LockClient connect() {
    return PostgresLockClient.connect(postgres.uri());
  }
}
