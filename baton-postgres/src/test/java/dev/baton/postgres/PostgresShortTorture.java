package dev.baton.postgres;

import dev.baton.testkit.PostgresServerExtension;
import dev.baton.testkit.torture.ShortTorture;
import dev.baton.torture.Fault;
import dev.baton.torture.Primitive;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.TortureServers;
import java.util.EnumSet;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The short torture of one primitive on a single PostgreSQL server, which is restarted now and then and, as often,
 * ends every client's connection ({@code pg_terminate_backend}), besides the paused and killed workers.
 */
abstract class PostgresShortTorture extends ShortTorture {
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  PostgresShortTorture(String name, Primitive primitive) {
    super(PostgresClientFactory.class, name,
        EnumSet.of(Fault.PAUSE, Fault.KILL, Fault.SERVER_RESTART, Fault.CONNECTION_KILL), primitive);
  }

  @Override
  protected String target() {
    return postgres.uri();
  }

  @Override
  protected ServerFaults serverFaults() {
    return TortureServers.of(postgres.server());
  }
}
