package consumer;

import dev.baton.LockClient;
import dev.baton.postgres.PostgresLockClient;
import dev.baton.servers.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PostgresLocksTest {
  private static final PostgresServer SERVER = new PostgresServer();

  @BeforeAll
  static void start() {
    SERVER.start();
  }

  @AfterAll
  static void stop() {
    SERVER.stop();
  }

  @Test
  void locksOnPostgres() throws Exception {
    try (LockClient first = PostgresLockClient.connect(SERVER.uri());
        LockClient second = PostgresLockClient.connect(SERVER.uri())) {
      LockRounds.distinctKeys(first, "postgres");
      LockRounds.contended(first, second, "postgres");
    }
  }
}
