package dev.baton.bench.suite;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;

/** A Baton client, used through leases ({@code acquire()} + {@code close()}) or through its {@code Lock} view. */
final class BatonContender implements Contender {
  private final LockClient client;
  private final boolean lockView;

  BatonContender(LockClient client, boolean lockView) {
    this.client = client;
    this.lockView = lockView;
  }

  @Override
  public Locker locker(String key) {
    DistributedLock lock = client.lock(key);
    return lockView ? new LockView(lock) : new LeaseHolder(lock);
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

  /** {@code acquire()} + {@code close()} of the lease. */
  private static final class LeaseHolder implements Locker {
    private final DistributedLock lock;
    private Lease lease;

    LeaseHolder(DistributedLock lock) {
      this.lock = lock;
    }

    @Override
    public void lock() throws InterruptedException {
      lease = lock.acquire();
    }

    @Override
    public void unlock() {
      lease.close();
      lease = null;
    }
  }
}
