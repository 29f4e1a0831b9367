package dev.baton.mysql;

import dev.baton.testkit.MariaDbServerExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Fault;
import dev.baton.torture.Primitive;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
import java.util.EnumSet;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The short torture of one primitive on a single MariaDB server, which is restarted now and then and, as often,
 * ends every client's connection ({@code KILL CONNECTION}), besides the paused and killed workers.
 */
abstract class MySqlShortTorture extends ShortTorture {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  MySqlShortTorture(String name, Primitive primitive) {
    super(MySqlClientFactory.class, name,
        EnumSet.of(Fault.PAUSE, Fault.KILL, Fault.SERVER_RESTART, Fault.CONNECTION_KILL), primitive);
  }

  @Override
  protected String target() {
    return mariadb.uri();
  }

  @Override
  protected ServerFaults serverFaults() {
    return TortureServers.of(mariadb.server());
  }
}
