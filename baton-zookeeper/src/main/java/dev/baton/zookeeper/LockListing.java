package dev.baton.zookeeper;

import dev.baton.LockStatus;
import dev.baton.spi.KeyOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * Lists the locks held under a key prefix by walking the container nodes below the prefix's deepest complete path
 * segment. A key comes before the keys of its children, so taking the nodes to visit from a queue ordered by key
 * finds the locks in key order, and the walk stops at the {@code limit}-th. Each visited node costs a
 * {@code getChildren}, each lock found a {@code getData} of its holder's node.
 */
final class LockListing {
  private final ZooKeeper zk;
  private final ZkPaths paths;
  private final Duration callTimeout;
  private final String what;

  LockListing(ZooKeeper zk, ZkPaths paths, Duration callTimeout, String keyPrefix) {
    this.zk = zk;
    this.paths = paths;
    this.callTimeout = callTimeout;
    this.what = "Listing the locks under '" + keyPrefix + "'";
  }

  /** The first {@code limit} locks held under {@code keyPrefix}, which {@link ZkPaths#checkPrefix} accepted. */
  List<LockStatus> list(String keyPrefix, int limit) throws KeeperException {
    String start = ZkPaths.completeSegments(keyPrefix);
    String partial = ZkPaths.partialSegment(keyPrefix);
    PriorityQueue<String> toVisit = new PriorityQueue<>(KeyOrder.BY_CODE_POINT);
    for (String child : children(start.isEmpty() ? paths.namespace() : paths.lockPath(start))) {
      if (child.startsWith(partial) && !child.startsWith(ZkPaths.RESERVED_PREFIX) && !paths.isSystemNode(start, child)) {
        toVisit.add(start.isEmpty() ? child : start + "/" + child);
      }
    }
    List<LockStatus> held = new ArrayList<>();
    while (held.size() < limit && !toVisit.isEmpty()) {
      String key = toVisit.poll();
      List<String> children = children(paths.lockPath(key));
      for (String child : children) {
        if (!child.startsWith(ZkPaths.RESERVED_PREFIX)) {
          toVisit.add(key + "/" + child);
        }
      }
      LockStatus status = holder(key, LockQueue.of(children));
      if (status != null) {
        held.add(status);
      }
    }
    return held;
  }

  /**
   * The lock's status from its queue as listed: the first node still there holds it (those before it were released
   * since the listing), and the entries after it that their rule does not let hold wait; null if none is left.
   */
  private LockStatus holder(String key, LockQueue queue) throws KeeperException {
    for (int i = 0; i < queue.size(); i++) {
      try {
        ZkCalls.Data holder = ZkCalls.await(ZkCalls.data(zk, paths.lockPath(key) + "/" + queue.name(i)), callTimeout, what);
        return ZooKeeperBackend.held(key, holder, queue.withoutOldest(i));
      } catch (KeeperException.NoNodeException released) {
        // Released since the listing: the next node holds now.
      }
    }
    return null;
  }

  /** The node's children, none if the node is gone (a container the server swept). */
  private List<String> children(String path) throws KeeperException {
    try {
      return ZkCalls.await(ZkCalls.children(zk, path), callTimeout, what);
    } catch (KeeperException.NoNodeException gone) {
      return List.of();
    }
  }
}
