package dev.baton.bench.suite;

import org.redisson.Redisson;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@code RLock} (watchdog renewal, pub/sub wake-up), the read lock of its {@code RReadWriteLock} and its
 * {@code RPermitExpirableSemaphore} (whose permits have ids, as Baton's leases do), one client per process, with its
 * defaults but one: 50 subscriptions per pub/sub connection instead of 5. Its default 50 connections x 5 let 250
 * keys have waiters at once; past that, a waiter fails after 7.5 s ("Unable to acquire subscription lock"), and the
 * heap scenario has 1 000 waiters on as many keys.
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
  public Locker locker(String key, Hold hold) {
    return switch (hold) {
      case MUTEX -> Locker.of(client.getLock(key));
      case READ -> Locker.of(client.getReadWriteLock(key).readLock());
      case PERMIT -> permit(key);
      case WRITE -> throw hold.unsupportedBy(this);
    };
  }

  /** A permit of the semaphore {@code key}, which gets its permits here unless it has them already. */
  private Locker permit(String key) {
    RPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore(key);
    semaphore.trySetPermits(Hold.PERMITS);
    return new Locker() {
      private String permit;

      @Override
      public void lock() throws InterruptedException {
        permit = semaphore.acquire();
      }

      @Override
      public void unlock() {
        semaphore.release(permit);
        permit = null;
      }
    };
  }

  @Override
  public void close() {
    client.shutdown();
  }
}
