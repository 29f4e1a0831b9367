package dev.baton.zookeeper;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Outcome;
import dev.baton.spi.WakeUp;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The fair lock: an ephemeral sequential node under the lock's path queues us; the lowest sequence
 * holds; each waiter watches only its predecessor, so a release wakes one waiter. The node's name
 * carries our owner id, so that after a create whose reply was lost we find our node instead of leaving
 * an orphan.
 */
final class FairAttempt implements Attempt {
  private static final String MARK = "-lock-";
  private static final int SEQUENCE_DIGITS = 10;

  private final ZooKeeperBackend zk;
  private final AcquireRequest request;
  private final String lockPath;
  private final String prefix;
  private final String what;
  private String node;
  private long nodeSession;
  private long czxid;
  private boolean uncertain;

  FairAttempt(ZooKeeperBackend zk, AcquireRequest request) {
    this.zk = zk;
    this.request = request;
    this.lockPath = zk.lockPath(request.key());
    this.prefix = ZkPaths.RESERVED_PREFIX + request.ownerId() + MARK;
    this.what = "Acquiring '" + request.key() + "'";
  }

  @Override
  public Outcome tryAcquire(WakeUp wakeUp) {
    ZooKeeper handle = zk.connected();
    long session = handle.getSessionId();
    if (node != null && nodeSession != session) {
      node = null; // it went with its session
    }
    try {
      List<String> children = node == null ? queue(handle, session) : children(handle);
      if (children == null) {
        return Outcome.retryNow();
      }
      List<String> queue = queue(children);
      int index = queue.indexOf(node);
      if (index < 0) {
        node = null; // deleted behind our back while we waited, or with the lock's path: queue again
        return Outcome.retryNow();
      }
      if (index == 0) {
        return Outcome.granted(new ZkGrant(request, lockPath + "/" + node, session, czxid));
      }
      if (!zk.watch(handle, lockPath + "/" + queue.get(index - 1), wakeUp, what)) {
        return Outcome.retryNow();
      }
      return Outcome.waitAtMost(zk.maxTtl());
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, what);
    }
  }

  /**
   * Finds or creates our node and lists the queue, in one round trip when creating: the create and the
   * listing are sent back to back. Returns null after creating missing parents.
   */
  private List<String> queue(ZooKeeper handle, long session) throws KeeperException {
    if (uncertain) {
      List<String> children = children(handle);
      if (adopt(handle, session, children)) {
        return children;
      }
    }
    CompletableFuture<ZkCalls.Created> created = ZkCalls.create(handle, lockPath + "/" + prefix,
        ZooKeeperBackend.ownerData(request), zk.acl(), CreateMode.EPHEMERAL_SEQUENTIAL);
    CompletableFuture<List<String>> listed = ZkCalls.children(handle, lockPath);
    try {
      ZkCalls.Created node = ZkCalls.await(created, zk.callTimeout(), what);
      remember(node.path().substring(lockPath.length() + 1), session, node.stat().getCzxid());
    } catch (KeeperException.NoNodeException e) {
      zk.createParents(handle, lockPath, what);
      return null;
    } catch (KeeperException e) {
      uncertain = ZkCalls.outcomeUnknown(e);
      throw e;
    } catch (RuntimeException e) {
      uncertain = true;
      throw e;
    }
    return ZkCalls.await(listed, zk.callTimeout(), what);
  }

  /** The lock path's children; none if the path is gone (the server's container sweep removes it once empty). */
  private List<String> children(ZooKeeper handle) throws KeeperException {
    try {
      return ZkCalls.await(ZkCalls.children(handle, lockPath), zk.callTimeout(), what);
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    }
  }

  /** After a create with no reply: takes our node if the server made it in this session. */
  private boolean adopt(ZooKeeper handle, long session, List<String> children) throws KeeperException {
    uncertain = false;
    for (String child : children) {
      if (child.startsWith(prefix)) {
        Stat stat = ZkCalls.await(ZkCalls.exists(handle, lockPath + "/" + child), zk.callTimeout(), what);
        if (stat != null && stat.getEphemeralOwner() == session) {
          remember(child, session, stat.getCzxid());
          return true;
        }
      }
    }
    return false;
  }

  private void remember(String name, long session, long zxid) {
    node = name;
    nodeSession = session;
    czxid = zxid;
    uncertain = false;
  }

  @Override
  public void abandon() {
    ZooKeeper handle = zk.connected();
    try {
      if (node == null && uncertain) {
        adopt(handle, handle.getSessionId(), children(handle));
      }
      if (node != null && nodeSession == handle.getSessionId()) {
        handle.delete(lockPath + "/" + node, -1);
      }
      node = null;
    } catch (KeeperException.NoNodeException e) {
      node = null;
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, "Leaving the queue of '" + request.key() + "'");
    } catch (InterruptedException e) {
      throw ZkErrors.interrupted("Leaving the queue of '" + request.key() + "'", e);
    }
  }

  /** The lock nodes among a lock path's children, in queue order. */
  static List<String> queue(List<String> children) {
    return children.stream().filter(FairAttempt::isLockNode).sorted(BY_SEQUENCE).toList();
  }

  private static boolean isLockNode(String name) {
    int mark = name.lastIndexOf(MARK);
    return name.startsWith(ZkPaths.RESERVED_PREFIX) && mark > 0 && name.length() - mark - MARK.length() == SEQUENCE_DIGITS;
  }

  private static final Comparator<String> BY_SEQUENCE = Comparator.comparing(name -> name.substring(name.length() - SEQUENCE_DIGITS));
}
