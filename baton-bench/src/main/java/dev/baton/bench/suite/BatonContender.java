package dev.baton.bench.suite;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import java.time.Duration;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * A Baton client, used through leases ({@code acquire()} + {@code close()}) of its mutexes, read and write locks
 * and semaphores, or through the {@code Lock} view of its mutexes.
 */
final class BatonContender implements Contender {
  /** How long the mutexes of {@link #lingering} stay held after their release, for a re-acquire of the same client. */
  static final Duration LINGER = Duration.ofSeconds(5);

  private final LockClient client;
  private final boolean lockView;
  private final LockOptions options;
  /** The application's pool the client borrows from, closed after it; null for a client with its own connections. */
  private final HikariDataSource pool;

  BatonContender(LockClient client, boolean lockView) {
    this(client, lockView, client.defaultOptions(), null);
  }

  private BatonContender(LockClient client, boolean lockView, LockOptions options, HikariDataSource pool) {
    this.client = client;
    this.lockView = lockView;
    this.options = options;
    this.pool = pool;
  }

  /**
   * Leases of the client that {@code connect} makes on {@code pool}, an application's HikariCP pool as Spring Boot
   * makes one, which is closed after the client.
   */
  static BatonContender onPool(HikariDataSource pool, Function<DataSource, LockClient> connect) {
    try {
      LockClient client = connect.apply(pool);
      return new BatonContender(client, false, client.defaultOptions(), pool);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  /** Leases of {@code client}'s mutexes that linger {@link #LINGER} after their release. */
  static BatonContender lingering(LockClient client) {
    return new BatonContender(client, false, client.defaultOptions().toBuilder().linger(LINGER).build(), null);
  }

  @Override
  public Locker locker(String key, Hold hold) {
    if (lockView) {
      if (hold != Hold.LOCK) {
        throw hold.unsupportedBy(this);
      }
      return new LockView(client.lock(key));
    }
    return switch (hold) {
      case LOCK -> new LeaseHolder(client.lock(key, options)::acquire);
      case READ_LOCK -> new LeaseHolder(client.readWriteLock(key).readLock()::acquire);
      case WRITE_LOCK -> new LeaseHolder(client.readWriteLock(key).writeLock()::acquire);
      case SEMAPHORE -> new LeaseHolder(client.semaphore(key, Hold.PERMITS)::acquire);
      case MULTI_LOCK -> new LeaseHolder(() -> client.multiLock(KeySet.random(key)).acquire());
    };
  }

  @Override
  public void close() {
    client.close();
    if (pool != null) {
      pool.close();
    }
  }

  /** {@code lock()} + {@code unlock()}: thread-owned and reentrant. */
  private record LockView(DistributedLock handle) implements Locker {
    @Override
    public void lock() {
      handle.lock();
    }

    @Override
    public void unlock() {
      handle.unlock();
    }
  }

  /** Where a {@link LeaseHolder} takes its leases: a lock's or a semaphore's {@code acquire()}. */
  private interface Acquirer {
    Lease acquire() throws InterruptedException;
  }

  /** {@code acquire()} + {@code close()} of the lease. */
  private static final class LeaseHolder implements Locker {
    private final Acquirer acquirer;
    private Lease lease;

    LeaseHolder(Acquirer acquirer) {
      this.acquirer = acquirer;
    }

    @Override
    public void lock() throws InterruptedException {
      lease = acquirer.acquire();
    }

    @Override
    public void unlock() {
      lease.close();
      lease = null;
    }
  }
}
