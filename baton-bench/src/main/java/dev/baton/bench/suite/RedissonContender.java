package dev.baton.bench.suite;

import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@code RLock} (watchdog renewal, pub/sub wake-up), one client per process, with its defaults but one:
 * 50 subscriptions per pub/sub connection instead of 5. Its default 50 connections x 5 let 250 keys have waiters at
 * once; past that, a waiter fails after 7.5 s ("Unable to acquire subscription lock"), and the heap scenario has
 * 1 000 waiters on as many keys.
 */
final class RedissonContender implements Contender {
  private static final int SUBSCRIPTIONS_PER_CONNECTION = 50;

  private final RedissonClient client;

  RedissonContender(String redisUri) {
    Config config = new Config();
    config.useSingleServer().setAddress(redisUri).setSubscriptionsPerConnection(SUBSCRIPTIONS_PER_CONNECTION);
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
