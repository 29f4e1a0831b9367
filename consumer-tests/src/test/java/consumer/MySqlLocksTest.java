package consumer;

import dev.baton.LockClient;
import dev.baton.mysql.MySqlLockClient;
import dev.baton.servers.MariaDbServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class MySqlLocksTest {
  private static final MariaDbServer SERVER = new MariaDbServer();

  @BeforeAll
  static void start() {
    SERVER.start();
  }

  @AfterAll
  static void stop() {
    SERVER.stop();
  }

  @Test
  void locksOnMariaDb() throws Exception {
    try (LockClient first = MySqlLockClient.connect(SERVER.uri());
        LockClient second = MySqlLockClient.connect(SERVER.uri())) {
      LockRounds.distinctKeys(first, "mysql");
      LockRounds.contended(first, second, "mysql");
    }
  }
}
