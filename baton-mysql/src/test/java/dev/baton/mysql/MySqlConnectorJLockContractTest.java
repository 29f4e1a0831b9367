package dev.baton.mysql;

import dev.baton.testkit.MariaDbServerExtension;
import dev.baton.torture.LockClientFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The backend-independent contract, against a real MariaDB server, on an application's {@code DataSource} of the
 * other driver, Oracle's MySQL Connector/J, on a HikariCP pool: the store is plain JDBC there, and its SQL and
 * errors read the same through either driver.
 */
class MySqlConnectorJLockContractTest extends MariaDbLockContract {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @AfterAll
  static void closePools() {
    MySqlConnectorJClientFactory.closePools();
  }

  @Override
  protected Class<? extends LockClientFactory> factoryClass() {
    return MySqlConnectorJClientFactory.class;
  }

  @Override
  protected MariaDbServerExtension mariadb() {
    return mariadb;
  }
}
