package dev.baton.zookeeper;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.EntryMode;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import dev.baton.spi.WakeUp;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * One acquisition in a lock's queue: an ephemeral sequential {@link LockNodes lock node} under the lock's path,
 * sent back to back with the listing of the queue; the request's {@link QueueRule} says whether it holds (for a
 * lock: it is the lowest node). Fair and non-fair acquisitions share the queue and that one rule, so that they
 * exclude each other whatever each caller asked for; they differ only in how they wait:
 *
 * <ul>
 *   <li>fair: keeps its node, its place in line, and watches the node the rule says it waits for (a lock's: its
 *       predecessor) only, so that a release wakes one waiter;
 *   <li>non-fair: keeps no place in line. It deletes its node and watches the first node it conflicts with (a
 *       lock's: the head of the queue, the holder or a node about to go); when that goes, it creates a node again,
 *       and the rule decides anew. Every non-fair waiter wakes at each release.
 * </ul>
 *
 * <p>The node's name carries the owner id, so that after a create whose reply was lost we find our node (if the
 * server made it in our session) instead of leaving an orphan. The fencing token is the node's czxid.
 */
final class QueueAttempt implements Attempt {
  private final ZooKeeperBackend zk;
  private final AcquireRequest request;
  private final String lockPath;
  private final String prefix;
  private final String what;
  /** Our node's name while it may exist at the server; null when we have none (or it went with its session). */
  private String node;
  private long nodeSession;
  private long czxid;
  /** A create of ours failed in a way that leaves unknown whether the server made the node. */
  private boolean uncertain;
  /** Whether the lock path's ACL was found closed to others since we last entered the queue (or needs no check). */
  private boolean pathChecked;
  /** The lock path's ACL, asked for with our entry into the queue and not read yet. */
  private CompletableFuture<List<ACL>> pathAcl;

  QueueAttempt(ZooKeeperBackend zk, AcquireRequest request) {
    this.zk = zk;
    this.request = request;
    this.lockPath = zk.lockPath(request.key());
    this.prefix = LockNodes.prefix(request.ownerId());
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
      List<String> queue = node == null ? enter(handle, session) : list(handle);
      if (queue == null) {
        return Outcome.retryNow();
      }
      int index = queue.indexOf(node);
      if (index < 0) {
        node = null; // deleted behind our back, or with the lock's path: queue again
        return Outcome.retryNow();
      }
      checkPath(handle);
      List<EntryMode> ahead = LockNodes.modes(queue.subList(0, index));
      QueueRule rule = request.rule();
      int awaitedIndex = rule.awaited(ahead);
      if (awaitedIndex == QueueRule.HOLDS) {
        return Outcome.granted(new ZkGrant(request, lockPath + "/" + node, session, czxid));
      }
      String awaited = lockPath + "/" + queue.get(request.fair() ? awaitedIndex : rule.firstConflicting(ahead));
      boolean watching = request.fair() ? watch(handle, awaited, wakeUp) : leaveAndWatch(handle, awaited, wakeUp);
      return watching ? Outcome.waitAtMost(zk.maxTtl()) : Outcome.retryNow();
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, what);
    }
  }

  /**
   * Finds or creates our node and lists the queue, in one round trip when creating: the create and the listing
   * are sent back to back. Returns null after creating missing parents.
   */
  private List<String> enter(ZooKeeper handle, long session) throws KeeperException {
    // The path may be new since we last checked it. Asked first, so that the check costs no round trip of its own.
    pathChecked = !zk.guardsLockPaths();
    pathAcl = pathChecked ? null : ZkCalls.acl(handle, lockPath);
    if (uncertain) {
      List<String> children = children(handle);
      if (adopt(handle, session, children)) {
        return LockNodes.queue(children);
      }
    }
    CompletableFuture<ZkCalls.Created> created = ZkCalls.create(handle, lockPath + "/" + prefix,
        ZooKeeperBackend.ownerData(request), zk.acl(), CreateMode.EPHEMERAL_SEQUENTIAL);
    CompletableFuture<List<String>> listed = ZkCalls.children(handle, lockPath);
    try {
      ZkCalls.Created made = ZkCalls.await(created, zk.callTimeout(), what);
      remember(made.path().substring(lockPath.length() + 1), session, made.stat().getCzxid());
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
    return LockNodes.queue(ZkCalls.await(listed, zk.callTimeout(), what));
  }

  /**
   * Refuses, once per entry into the queue, a lock path that others may write (the engine then abandons the
   * attempt, deleting our node). Nothing to check without digest auth or a closed ACL.
   */
  private void checkPath(ZooKeeper handle) throws KeeperException {
    if (pathChecked) {
      return;
    }
    List<ACL> found;
    try {
      found = ZkCalls.await(pathAcl != null ? pathAcl : ZkCalls.acl(handle, lockPath), zk.callTimeout(), what);
    } catch (KeeperException.NoNodeException e) {
      // Asked before the path was made, by us or another client: it holds our node now.
      found = ZkCalls.await(ZkCalls.acl(handle, lockPath), zk.callTimeout(), what);
    } finally {
      pathAcl = null;
    }
    zk.checkLockPathAcl(lockPath, found, request.key());
    pathChecked = true;
  }

  private List<String> list(ZooKeeper handle) throws KeeperException {
    return LockNodes.queue(children(handle));
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

  /** Watches the node a fair waiter waits for; false if it is gone already. A single try sets no watch. */
  private boolean watch(ZooKeeper handle, String awaited, WakeUp wakeUp) throws KeeperException {
    return !request.mayWait() || ZkCalls.await(ZkCalls.watch(handle, awaited, wakeUp), zk.callTimeout(), what);
  }

  /**
   * A non-fair waiter gives up its place in line and watches the head, in one round trip: the delete and the
   * watch are sent back to back. Returns false if the head is gone already. If the delete's reply is lost, the
   * node stays ours to find at the next try (it may even hold by then) or to delete on abandon.
   */
  private boolean leaveAndWatch(ZooKeeper handle, String head, WakeUp wakeUp) throws KeeperException {
    CompletableFuture<Boolean> deleted = ZkCalls.delete(handle, lockPath + "/" + node);
    CompletableFuture<Boolean> watching = request.mayWait() ? ZkCalls.watch(handle, head, wakeUp)
        : CompletableFuture.completedFuture(true);
    ZkCalls.await(deleted, zk.callTimeout(), what);
    node = null;
    return ZkCalls.await(watching, zk.callTimeout(), what);
  }

  @Override
  public void abandon() {
    String leaving = "Leaving the queue of '" + request.key() + "'";
    ZooKeeper handle = zk.connected();
    try {
      if (node == null && uncertain) {
        adopt(handle, handle.getSessionId(), children(handle));
      }
      if (node != null && nodeSession == handle.getSessionId()) {
        ZkCalls.await(ZkCalls.delete(handle, lockPath + "/" + node), zk.callTimeout(), leaving);
      }
      node = null;
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, leaving);
    }
  }
}
