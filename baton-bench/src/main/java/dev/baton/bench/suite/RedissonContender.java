package dev.baton.bench.suite;

import java.util.List;
import org.redisson.Redisson;
import org.redisson.RedissonMultiLock;
import org.redisson.api.RLock;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@code RLock} (watchdog renewal, pub/sub wake-up), the read lock of its {@code RReadWriteLock}, its
 * {@code RPermitExpirableSemaphore} (whose permits have ids, as Baton's leases do) and its {@code RedissonMultiLock},
 * one client per process, with its defaults but one: 50 subscriptions per pub/sub connection instead of 5. Its
 * default 50 connections x 5 let 250 keys have waiters at once; past that, a waiter fails after 7.5 s ("Unable to
 * acquire subscription lock"), and the heap scenario has 1 000 waiters on as many keys.
 *
 * <p>On a cluster ({@code useClusterServers()}) whose masters have replicas, Redisson sends each lock and unlock script
 * in a batch with a {@code WAIT} for the master's replicas, so that a cycle waits for a replica's acknowledgement too
 * (Baton's does not). {@code Config.checkLockSyncedSlaves} does not remove the {@code WAIT}: it decides only whether a
 * {@code WAIT} that no replica acknowledged fails the call.
 */
final class RedissonContender implements Contender {
  private static final int SUBSCRIPTIONS_PER_CONNECTION = 50;

  private final RedissonClient client;

  private RedissonContender(Config config) {
    client = Redisson.create(config);
  }

  /** A client of the server at {@code redisUri}. */
  static RedissonContender oneServer(String redisUri) {
    Config config = new Config();
    config.useSingleServer().setAddress(redisUri).setSubscriptionsPerConnection(SUBSCRIPTIONS_PER_CONNECTION);
    return new RedissonContender(config);
  }

  /** A client of the cluster whose nodes ({@code HOST:PORT} each) are its seeds. */
  static RedissonContender cluster(List<String> nodes) {
    Config config = new Config();
    config.useClusterServers().setSubscriptionsPerConnection(SUBSCRIPTIONS_PER_CONNECTION)
        .addNodeAddress(nodes.stream().map(node -> "redis://" + node).toArray(String[]::new));
    return new RedissonContender(config);
  }

  @Override
  public Locker locker(String key, Hold hold) {
    return switch (hold) {
      case LOCK -> Locker.of(client.getLock(key));
      case READ_LOCK -> Locker.of(client.getReadWriteLock(key).readLock());
      case SEMAPHORE -> permit(key);
      case MULTI_LOCK -> multiLock(key);
      case WRITE_LOCK -> throw hold.unsupportedBy(this);
    };
  }

  /** A {@code RedissonMultiLock} over the {@code RLock}s of a random {@link KeySet}, a new one each cycle. */
  private Locker multiLock(String key) {
    return new Locker() {
      private RedissonMultiLock lock;

      @Override
      public void lock() {
        lock = new RedissonMultiLock(KeySet.random(key).stream().map(client::getLock).toArray(RLock[]::new));
        lock.lock();
      }

      @Override
      public void unlock() {
        lock.unlock();
        lock = null;
      }
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
