package dev.baton.mysql;

import dev.baton.testkit.MariaDbServerExtension;
import dev.baton.torture.LockClientFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The backend-independent contract, against a real MariaDB server, on an application's {@code DataSource} that runs
 * one statement a call (a pool of MariaDB Connector/J's with its defaults): an uncontended acquire's first try is the
 * compound statement ({@code claim-block.sql}), every other the full transaction.
 */
class MySqlDataSourceLockContractTest extends MariaDbLockContract {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @AfterAll
  static void closePools() {
    MySqlDataSourceClientFactory.closePools();
  }

  @Override
  protected Class<? extends LockClientFactory> factoryClass() {
    return MySqlDataSourceClientFactory.class;
  }

  @Override
  protected MariaDbServerExtension mariadb() {
    return mariadb;
  }
}
