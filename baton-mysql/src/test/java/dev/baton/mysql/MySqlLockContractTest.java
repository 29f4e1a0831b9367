package dev.baton.mysql;

import dev.baton.testkit.LockClientContract;
import dev.baton.testkit.MariaDbServerExtension;
import dev.baton.torture.LockClientFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The backend-independent contract, against a real MariaDB server. */
class MySqlLockContractTest extends LockClientContract {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Override
  protected Class<? extends LockClientFactory> factoryClass() {
    return MySqlClientFactory.class;
  }

  @Override
  protected String target() {
    return mariadb.uri();
  }

  @Override
  protected void removeEntryBehindOurBack(String key) {
    TestDatabase.updateForKey(mariadb.server(), "DELETE FROM baton_locks WHERE lock_key = ?", key);
  }

  @Override
  protected int entriesAtStore(String key) {
    return (int) TestDatabase.numberForKey(mariadb.server(), "SELECT count(*) FROM baton_locks WHERE lock_key = ?",
        key);
  }
}
