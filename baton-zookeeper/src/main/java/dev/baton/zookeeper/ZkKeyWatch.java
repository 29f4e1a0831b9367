package dev.baton.zookeeper;

import dev.baton.spi.KeyWatch;
import dev.baton.spi.WakeUp;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * A watch on one key's lock path, signalled once at the first change after it was set: a node of the queue made or
 * deleted, the path's data written by a grant's stamp ({@link QueueAttempt}), the path made or removed, or the
 * session's connection lost (the engine then reads again, and watches afresh). A persistent watch, so that it is set
 * in one request whether or not the path exists; removed at the server once fired or closed.
 */
final class ZkKeyWatch implements KeyWatch, Watcher {
  private final ZooKeeper zk;
  private final String lockPath;
  private final WakeUp changed;
  private final AtomicBoolean done = new AtomicBoolean();

  private ZkKeyWatch(ZooKeeper zk, String lockPath, WakeUp changed) {
    this.zk = zk;
    this.lockPath = lockPath;
    this.changed = changed;
  }

  /** Sets the watch, and returns once the server has it. */
  static ZkKeyWatch set(ZooKeeper zk, String lockPath, WakeUp changed, Duration timeout, String what)
      throws KeeperException {
    ZkKeyWatch watch = new ZkKeyWatch(zk, lockPath, changed);
    ZkCalls.await(ZkCalls.addWatch(zk, lockPath, watch, AddWatchMode.PERSISTENT), timeout, what);
    return watch;
  }

  @Override
  public void process(WatchedEvent event) {
    if (event.getType() == Event.EventType.PersistentWatchRemoved) {
      return;
    }
    if (done.compareAndSet(false, true)) {
      changed.signal();
      remove();
    }
  }

  @Override
  public void close() {
    if (done.compareAndSet(false, true)) {
      remove();
    }
  }

  /** Removes the watch at the server, in the background; a failure leaves it to end with the session. */
  private void remove() {
    zk.removeWatches(lockPath, this, WatcherType.Any, true, (rc, path, ctx) -> { }, null);
  }
}
