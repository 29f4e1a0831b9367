package dev.baton.virtualthreads;

import dev.baton.testkit.MariaDbServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The virtual-thread contract on a MariaDB server the test kit starts, through the MySQL store. */
class MySqlVirtualThreadTest extends VirtualThreadContract {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Override
  String uri() {
    return mariadb.uri();
  }
}
