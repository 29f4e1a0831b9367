package dev.baton.mysql;

import dev.baton.testkit.MariaDbServerExtension;
import dev.baton.torture.LockClientFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The backend-independent contract, against a real MariaDB server. */
class MySqlLockContractTest extends MariaDbLockContract {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Override
  protected Class<? extends LockClientFactory> factoryClass() {
    return MySqlClientFactory.class;
  }

  @Override
  protected MariaDbServerExtension mariadb() {
    return mariadb;
  }
}
