package dev.baton.bench.suite;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Lock;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * jetcd's {@code Lock} service. A lock there belongs to a lease, and two threads sharing a lease both "hold" it,
 * so each thread grants a lease of its own (one hour, no keep-alive needed within a run) on its first locker;
 * the leases are revoked on close. jetcd has a mutex only: no read-write lock, no semaphore.
 */
final class JetcdLockContender implements Contender {
  private static final long LEASE_SECONDS = 3600;

  private final Client client;
  private final Lock locks;
  private final ThreadLocal<Long> threadLease = new ThreadLocal<>();
  private final List<Long> leases = new CopyOnWriteArrayList<>();

  JetcdLockContender(String endpoint) {
    client = Client.builder().endpoints(endpoint).build();
    locks = client.getLockClient();
  }

  @Override
  public Locker locker(String key, Hold hold) throws Exception {
    if (hold != Hold.LOCK) {
      throw hold.unsupportedBy(this);
    }
    long lease = leaseOfThisThread();
    ByteSequence name = ByteSequence.from("/jetcd/" + key, StandardCharsets.UTF_8);
    return new Locker() {
      private ByteSequence held;

      @Override
      public void lock() throws Exception {
        held = locks.lock(name, lease).get().getKey();
      }

      @Override
      public void unlock() throws Exception {
        locks.unlock(held).get();
        held = null;
      }
    };
  }

  @Override
  public void close() throws Exception {
    for (long lease : leases) {
      client.getLeaseClient().revoke(lease).get();
    }
    client.close();
  }

  private long leaseOfThisThread() throws Exception {
    Long lease = threadLease.get();
    if (lease == null) {
      lease = client.getLeaseClient().grant(LEASE_SECONDS).get().getID();
      threadLease.set(lease);
      leases.add(lease);
    }
    return lease;
  }
}
