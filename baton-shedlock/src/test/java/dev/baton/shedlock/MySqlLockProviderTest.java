package dev.baton.shedlock;

import dev.baton.LockClient;
import dev.baton.mysql.MySqlLockClient;
import dev.baton.testkit.MariaDbServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ShedLock's provider test suite, and the checks it lacks, on a real MariaDB server through the MySQL store. */
class MySqlLockProviderTest extends BatonLockProviderContract {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Override
  protected LockClient connect() {
    return MySqlLockClient.connect(mariadb.uri());
  }
}
