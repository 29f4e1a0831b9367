package dev.baton.spring.integration;

import dev.baton.LockClient;
import dev.baton.mysql.MySqlLockClient;
import dev.baton.testkit.MariaDbServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock registry on a real MariaDB server through the MySQL store. */
class MySqlLockRegistryTest extends BatonLockRegistryContract {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Override
  protected LockClient connect() {
    return MySqlLockClient.connect(mariadb.uri());
  }
}
