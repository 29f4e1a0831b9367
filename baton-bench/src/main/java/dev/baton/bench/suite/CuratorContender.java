package dev.baton.bench.suite;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMultiLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Curator's {@code InterProcessMutex}, the read lock of its {@code InterProcessReadWriteLock}, its
 * {@code InterProcessSemaphoreV2} and its {@code InterProcessMultiLock}, under {@code /curator}, one
 * {@code CuratorFramework} per process.
 */
final class CuratorContender implements Contender {
  private static final int CONNECT_SECONDS = 10;

  private final CuratorFramework client;

  CuratorContender(String connectString) throws InterruptedException {
    client = CuratorFrameworkFactory.newClient(connectString, new ExponentialBackoffRetry(100, 3));
    client.start();
    if (!client.blockUntilConnected(CONNECT_SECONDS, TimeUnit.SECONDS)) {
      client.close();
      throw new IllegalStateException("Curator did not connect to " + connectString + " within "
          + CONNECT_SECONDS + " s.");
    }
  }

  @Override
  public Locker locker(String key, Hold hold) {
    String path = "/curator/" + key;
    return switch (hold) {
      case LOCK -> locker(new InterProcessMutex(client, path));
      case READ_LOCK -> locker(new InterProcessReadWriteLock(client, path).readLock());
      case SEMAPHORE -> permit(new InterProcessSemaphoreV2(client, path, Hold.PERMITS));
      case MULTI_LOCK -> multiLock(path);
      case WRITE_LOCK -> throw hold.unsupportedBy(this);
    };
  }

  /** An {@code InterProcessMultiLock} over the paths of a random {@link KeySet}, a new one each cycle. */
  private Locker multiLock(String path) {
    return new Locker() {
      private InterProcessMultiLock lock;

      @Override
      public void lock() throws Exception {
        lock = new InterProcessMultiLock(client, KeySet.random(path));
        lock.acquire();
      }

      @Override
      public void unlock() throws Exception {
        lock.release();
        lock = null;
      }
    };
  }

  private static Locker locker(InterProcessMutex mutex) {
    return new Locker() {
      @Override
      public void lock() throws Exception {
        mutex.acquire();
      }

      @Override
      public void unlock() throws Exception {
        mutex.release();
      }
    };
  }

  private static Locker permit(InterProcessSemaphoreV2 semaphore) {
    return new Locker() {
      private Lease lease;

      @Override
      public void lock() throws Exception {
        lease = semaphore.acquire();
      }

      @Override
      public void unlock() {
        semaphore.returnLease(lease);
        lease = null;
      }
    };
  }

  @Override
  public void close() {
    client.close();
  }
}
