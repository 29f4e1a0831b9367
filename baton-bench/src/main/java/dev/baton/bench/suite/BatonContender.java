package dev.baton.bench.suite;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;

/**
 * A Baton client, used through leases ({@code acquire()} + {@code close()}) of its mutexes, read and write locks
 * and semaphores, or through the {@code Lock} view of its mutexes.
 */
final class BatonContender implements Contender {
  private final LockClient client;
  private final boolean lockView;

  BatonContender(LockClient client, boolean lockView) {
    this.client = client;
    this.lockView = lockView;
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
      case LOCK -> new LeaseHolder(client.lock(key)::acquire);
      case READ_LOCK -> new LeaseHolder(client.readWriteLock(key).readLock()::acquire);
      case WRITE_LOCK -> new LeaseHolder(client.readWriteLock(key).writeLock()::acquire);
      case SEMAPHORE -> new LeaseHolder(client.semaphore(key, Hold.PERMITS)::acquire);
      case MULTI_LOCK -> new LeaseHolder(() -> client.multiLock(KeySet.random(key)).acquire());
    };
  }

  @Override
  public void close() {
    client.close();
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
