package dev.baton.bench.suite;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** Curator's {@code InterProcessMutex} under {@code /curator}, one {@code CuratorFramework} per process. */
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
  public Locker locker(String key) {
    InterProcessMutex mutex = new InterProcessMutex(client, "/curator/" + key);
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

  @Override
  public void close() {
    client.close();
  }
}
