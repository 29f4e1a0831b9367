package consumer;

import dev.baton.LockClient;
import dev.baton.redis.RedisLockClient;
import dev.baton.servers.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RedisLocksTest {
  private static final RedisServer SERVER = new RedisServer();

  @BeforeAll
  static void start() {
    SERVER.start();
  }

  @AfterAll
  static void stop() {
    SERVER.stop();
  }

  @Test
  void locksOnRedis() throws Exception {
    try (LockClient first = RedisLockClient.connect(SERVER.uri());
        LockClient second = RedisLockClient.connect(SERVER.uri())) {
      LockRounds.distinctKeys(first, "redis");
      LockRounds.contended(first, second, "redis");
    }
  }
}
