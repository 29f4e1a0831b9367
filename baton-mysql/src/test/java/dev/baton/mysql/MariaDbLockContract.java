package dev.baton.mysql;

import dev.baton.testkit.LockClientContract;
import dev.baton.testkit.MariaDbServerExtension;

/**
 * The backend-independent contract against a real MariaDB server, which each subclass starts for its class, through
 * the clients its factory makes (the own pool, or an application's {@code DataSource} of either driver): how the
 * contract reaches the server and its lock table.
 */
abstract class MariaDbLockContract extends LockClientContract {

  /** The subclass's server, in a static field of its own so that it lives as long as the class. */
  protected abstract MariaDbServerExtension mariadb();

  @Override
  protected String target() {
    return mariadb().uri();
  }

  @Override
  protected void removeEntryBehindOurBack(String key) {
    TestDatabase.updateForKey(mariadb().server(), "DELETE FROM baton_locks WHERE lock_key = ?", key);
  }

  @Override
  protected int entriesAtStore(String key) {
    return (int) TestDatabase.numberForKey(mariadb().server(), "SELECT count(*) FROM baton_locks WHERE lock_key = ?",
        key);
  }
}
