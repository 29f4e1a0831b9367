package dev.baton.shedlock;

import dev.baton.LockClient;
import dev.baton.postgres.PostgresLockClient;
import dev.baton.testkit.PostgresServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ShedLock's provider test suite, and the checks it lacks, on a real PostgreSQL server. */
class PostgresLockProviderTest extends BatonLockProviderContract {
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Override
  protected LockClient connect() {
    return PostgresLockClient.connect(postgres.uri());
  }
}
