package dev.baton.postgres;

import dev.baton.testkit.LockClientContract;
import dev.baton.testkit.PostgresServerExtension;
import dev.baton.torture.LockClientFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The backend-independent contract, against a real PostgreSQL server. */
class PostgresLockContractTest extends LockClientContract {
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Override
  protected Class<? extends LockClientFactory> factoryClass() {
    return PostgresClientFactory.class;
  }

  @Override
  protected String target() {
    return postgres.uri();
  }

  @Override
  protected void removeEntryBehindOurBack(String key) {
    TestDatabase.update(postgres.server(), "DELETE FROM baton_locks WHERE lock_key = " + TestDatabase.literal(key));
  }

  @Override
  protected int entriesAtStore(String key) {
    return (int) TestDatabase.number(postgres.server(),
        "SELECT count(*) FROM baton_locks WHERE lock_key = " + TestDatabase.literal(key));
  }
}
