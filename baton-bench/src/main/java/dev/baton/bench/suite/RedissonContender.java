package dev.baton.bench.suite;

import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** Redisson's {@code RLock} with its defaults (watchdog renewal, pub/sub wake-up), one client per process. */
final class RedissonContender implements Contender {
  private final RedissonClient client;

  RedissonContender(String redisUri) {
    Config config = new Config();
    config.useSingleServer().setAddress(redisUri);
    client = Redisson.create(config);
  }

  @Override
  public Locker locker(String key) {
    RLock lock = client.getLock(key);
    return new Locker() {
      @Override
      public void lock() {
        lock.lock();
      }

      @Override
      public void unlock() {
        lock.unlock();
      }
    };
  }

  @Override
  public void close() {
    client.shutdown();
  }
}
