package dev.baton.zookeeper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/** A plain ZooKeeper client for tests to look at, and tamper with, Baton's nodes. */
final class ZkInspector implements AutoCloseable {
  private final ZooKeeper zk;

  ZkInspector(String connectString) {
    CountDownLatch connected = new CountDownLatch(1);
    try {
      zk = new ZooKeeper(connectString, 10_000, event -> {
        if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
          connected.countDown();
        }
      });
      if (!connected.await(10, TimeUnit.SECONDS)) {
        zk.close();
        throw new IllegalStateException("The inspector could not connect to " + connectString);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static String lockPath(String key) {
    return ZooKeeperLockClient.DEFAULT_NAMESPACE + "/" + key;
  }

  /**
   * Baton's nodes (holders and queued waiters) under the key's path, as the leader has them: the inspector's server
   * of an ensemble may not have applied a client's last delete yet, so it catches up first (sync).
   */
  List<String> lockNodes(String key) throws KeeperException, InterruptedException {
    CountDownLatch synced = new CountDownLatch(1);
    zk.sync(lockPath(key), (rc, path, ctx) -> synced.countDown(), null);
    if (!synced.await(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("The inspector's ZooKeeper server did not sync within 10 s");
    }
    try {
      return zk.getChildren(lockPath(key), false).stream()
          .filter(n -> n.startsWith(ZkPaths.RESERVED_PREFIX))
          .sorted(Comparator.comparing(n -> n.substring(n.length() - 10)))
          .toList();
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    }
  }

  /** Creates the key's path as persistent nodes, so that the lock's first create finds its parents. */
  void createPath(String key) throws KeeperException, InterruptedException {
    String path = lockPath(key);
    for (int slash = path.indexOf('/', 1); ; slash = path.indexOf('/', slash + 1)) {
      try {
        zk.create(slash < 0 ? path : path.substring(0, slash), new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
      } catch (KeeperException.NodeExistsException e) {
        // Already there.
      }
      if (slash < 0) {
        return;
      }
    }
  }

  /** Deletes every Baton node of the key, as an operator might. */
  void deleteLockNodes(String key) throws KeeperException, InterruptedException {
    for (String node : lockNodes(key)) {
      zk.delete(lockPath(key) + "/" + node, -1);
    }
  }

  /** The session that owns the key's first lock node. */
  long ownerSession(String key) throws KeeperException, InterruptedException {
    Stat stat = zk.exists(lockPath(key) + "/" + lockNodes(key).get(0), false);
    return stat.getEphemeralOwner();
  }

  ZooKeeper zk() {
    return zk;
  }

  @Override
  public void close() throws InterruptedException {
    zk.close();
  }
}
