package dev.baton.bench.suite;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The raw limit of ZooKeeper for a lock cycle: create an ephemeral-sequential node, then delete it, with the
 * plain client, one session shared by the threads.
 */
final class RawZooKeeperContender implements Contender {
  private static final String PARENT = "/raw";
  private static final int SESSION_MILLIS = 10_000;
  private static final int CONNECT_SECONDS = 10;

  private final ZooKeeper zooKeeper;

  RawZooKeeperContender(String connectString) throws IOException, InterruptedException, KeeperException {
    CountDownLatch connected = new CountDownLatch(1);
    zooKeeper = new ZooKeeper(connectString, SESSION_MILLIS, event -> {
      if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
        connected.countDown();
      }
    });
    if (!connected.await(CONNECT_SECONDS, TimeUnit.SECONDS)) {
      zooKeeper.close();
      throw new IllegalStateException("The raw client did not connect to " + connectString);
    }
    try {
      zooKeeper.create(PARENT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    } catch (KeeperException.NodeExistsException e) {
      // made by an earlier run on the same server
    }
  }

  @Override
  public Locker locker(String key, Hold hold) {
    if (hold != Hold.LOCK) {
      throw hold.unsupportedBy(this);
    }
    String prefix = PARENT + "/" + key.replace('/', '-') + "-";
    return new Locker() {
      private String node;

      @Override
      public void lock() throws Exception {
        node = zooKeeper.create(prefix, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
      }

      @Override
      public void unlock() throws Exception {
        zooKeeper.delete(node, -1);
      }
    };
  }

  @Override
  public void close() throws InterruptedException {
    zooKeeper.close();
  }
}
