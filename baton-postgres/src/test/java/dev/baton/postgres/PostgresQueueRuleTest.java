package dev.baton.postgres;

import dev.baton.spi.LockBackend;
import dev.baton.testkit.PostgresServerExtension;
import dev.baton.testkit.QueueRuleContract;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Shared entries, permits and their meeting with exclusive ones, at the SPI, against a real PostgreSQL server. */
class PostgresQueueRuleTest extends QueueRuleContract {
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Override
  protected LockBackend newBackend() {
    PostgresAddress address = PostgresAddress.parse(postgres.uri());
    Properties login = new Properties();
    login.setProperty("user", address.user());
    login.setProperty("password", address.password());
    return PostgresBackend.connect(new PooledConnections(address.jdbcUrl(), login, 2), PostgresLockClient.DEFAULT_TABLE,
        Duration.ofSeconds(5), Duration.ofSeconds(5), PostgresLockClient.DEFAULT_SWEEP_EVERY, address.display());
  }
}
