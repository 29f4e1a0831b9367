package dev.baton.postgres;

import dev.baton.jdbc.ConnectionSetup;
import dev.baton.jdbc.JdbcAddress;
import dev.baton.jdbc.PooledConnections;
import dev.baton.spi.LockBackend;
import dev.baton.testkit.PostgresServerExtension;
import dev.baton.testkit.QueueRuleContract;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Shared entries, permits and their meeting with exclusive ones, at the SPI, against a real PostgreSQL server. */
class PostgresQueueRuleTest extends QueueRuleContract {
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Override
  protected LockBackend newBackend() {
    JdbcAddress address = PostgresAddress.parse(postgres.uri());
    PooledConnections connections = new PooledConnections(new org.postgresql.Driver(), "The PostgreSQL driver",
        address.jdbcUrl(), address.login(null, null), 2, ConnectionSetup.NONE);
    return PostgresBackend.connect(connections, PostgresLockClient.DEFAULT_TABLE, Duration.ofSeconds(5),
        Duration.ofSeconds(5), PostgresLockClient.DEFAULT_SWEEP_EVERY, address.display());
  }
}
