package dev.baton.zookeeper;

import dev.baton.internal.ReleasesAhead;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import dev.baton.spi.WakeUp;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * One acquisition in a lock's queue: an ephemeral sequential {@link LockNodes lock node} under the lock's path, named
 * for the request's {@link QueueRule} and sent back to back with the listing of the queue; the rule, applied to the
 * modes of the nodes ahead, says whether it holds (for a lock: it is the lowest node). Fair and non-fair acquisitions
 * share the queue and the rules, so that they exclude each other whatever each caller asked for; they differ only in
 * how they wait ({@link WaitTargets}):
 *
 * <ul>
 *   <li>fair: keeps its node, its place in line, and watches only what the rule says it waits for (a lock's: its
 *       predecessor), so that a release wakes one waiter;
 *   <li>non-fair: keeps no place in line. It deletes its node and watches the first nodes it conflicts with (a
 *       lock's: the head of the queue, the holder or a node about to go); when one goes, it creates a node again,
 *       and the rule decides anew. Every non-fair waiter wakes at each release. A non-fair writer waits as a fair
 *       one while only readers and permits are ahead of it ({@link WaitTargets#keepsPlace}), so that the readers
 *       who come after it queue behind it.
 * </ul>
 *
 * <p>The node's name carries the owner id, so that after a create whose reply was lost we find our node (if the
 * server made it in our session) instead of leaving an orphan.
 *
 * <p>The fencing token is larger than that of every grant before it on the key. A lock granted in queue order has
 * its node's czxid, at no cost; an entry that holds beside others is granted out of that order, and takes the zxid of
 * a write made once it holds ({@link #grant}).
 */
final class QueueAttempt implements Attempt {
  private final AttemptStore zk;
  private final AcquireRequest request;
  private final String lockPath;
  private final String prefix;
  private final byte[] data;
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

  /** An acquisition of {@code request}'s key, whose lock nodes live under {@code lockPath}, in {@code zk}. */
  QueueAttempt(AttemptStore zk, String lockPath, AcquireRequest request) {
    this.zk = zk;
    this.request = request;
    this.lockPath = lockPath;
    this.prefix = LockNodes.prefix(request.ownerId(), request.rule());
    // What a lock node holds: the owner id and who holds it (HolderRecord), for the status.
    this.data = request.ownerRecord().getBytes(StandardCharsets.UTF_8);
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
      ZkCalls.Listed listed = node == null ? enter(handle, session) : list(handle);
      if (listed == null) {
        return Outcome.retryNow();
      }
      LockQueue queue = LockQueue.of(listed.children());
      int index = queue.indexOf(node);
      if (index < 0) {
        node = null; // deleted behind our back, or with the lock's path: queue again
        return Outcome.retryNow();
      }
      checkPath(handle);
      QueueRule rule = request.rule();
      for (int i = 0; i < queue.size(); i++) {
        rule.checkSamePermits(request.key(), queue.rule(i));
      }
      if (rule.awaited(queue.modesBefore(index)) == QueueRule.HOLDS) {
        return grant(handle, session, queue, index, listed.stat());
      }
      return WaitTargets.keepsPlace(queue, index, request)
          ? waitInLine(handle, queue, WaitTargets.fair(queue, index, rule), wakeUp)
          : leaveAndWatch(handle, queue, WaitTargets.nonFair(queue, index, rule), wakeUp);
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, what);
    }
  }

  /**
   * Finds or creates our node and lists the queue, in one round trip when creating: the create and the listing
   * are sent back to back. Returns null after creating missing parents.
   */
  private ZkCalls.Listed enter(ZooKeeper handle, long session) throws KeeperException {
    // The path may be new since we last checked it. Asked first, so that the check costs no round trip of its own.
    pathChecked = !zk.guardsLockPaths();
    pathAcl = pathChecked ? null : ZkCalls.acl(handle, lockPath);
    if (uncertain) {
      ZkCalls.Listed listed = list(handle);
      if (adopt(handle, session, listed.children())) {
        return listed;
      }
    }
    ReleasesAhead.awaitOthers(lockPath, session, zk.callTimeout());
    CompletableFuture<ZkCalls.Created> created = ZkCalls.create(handle, lockPath + "/" + prefix, data, zk.acl(),
        CreateMode.EPHEMERAL_SEQUENTIAL);
    CompletableFuture<ZkCalls.Listed> listed = ZkCalls.listing(handle, lockPath);
    // The listing's answer comes after the create's, and is completed after it on the same thread: waiting for it
    // first wakes this thread once for both.
    ZkCalls.awaitQuietly(listed, zk.callTimeout());
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
    return ZkCalls.await(listed, zk.callTimeout(), what);
  }

  /**
   * Grants our entry, with a fencing token larger than that of every grant before it on the key.
   *
   * <p>Our node's czxid is such a token when we head the queue and the lock path's data has not been written since
   * our node was made: a grant with a larger token before ours would either have written it (below), or have taken
   * its own czxid, larger than ours, as the head of the queue, while our node was there ahead of it. On a key that
   * only locks take, that is every grant: a lock's token costs no request.
   *
   * <p>Otherwise, and when a permit right behind us may be waiting for our write ({@link WaitTargets#chained}), we
   * stamp our node and the lock path in one write, made after the listing that let us in, and its zxid is the token:
   * larger than every zxid before it, and so than every token already granted.
   */
  private Outcome grant(ZooKeeper handle, long session, LockQueue queue, int index, Stat lockPathStat)
      throws KeeperException {
    String path = lockPath + "/" + node;
    if (index == 0 && lockPathStat.getMzxid() < czxid && !WaitTargets.mayBeChainedOn(queue, index)) {
      return Outcome.granted(new ZkGrant(request, path, session, czxid, czxid));
    }
    Long stamped = ZkCalls.await(ZkCalls.stamp(handle, path, data, lockPath), zk.callTimeout(), what);
    if (stamped == null) {
      node = null; // deleted behind our back since the listing: queue again
      return Outcome.retryNow();
    }
    return Outcome.granted(new ZkGrant(request, path, session, czxid, stamped));
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

  /** The lock path's children and stat; no children if the path is gone (the container sweep removes it once empty). */
  private ZkCalls.Listed list(ZooKeeper handle) throws KeeperException {
    try {
      return ZkCalls.await(ZkCalls.listing(handle, lockPath), zk.callTimeout(), what);
    } catch (KeeperException.NoNodeException e) {
      return new ZkCalls.Listed(List.of(), new Stat());
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

  /**
   * A fair waiter watches what it waits for, and waits for a wake-up; or tries again at once if that has gone, or
   * has been granted, already. A single try sets no watch.
   */
  private Outcome waitInLine(ZooKeeper handle, LockQueue queue, WaitTargets targets, WakeUp wakeUp)
      throws KeeperException {
    if (!request.mayWait()) {
      return Outcome.waitAtMost(zk.maxTtl());
    }
    return awaitWatches(watch(handle, queue, targets, wakeUp), targets);
  }

  /**
   * A non-fair waiter gives up its place in line and watches what it waits for, in one round trip: the delete and
   * the watches are sent back to back. It tries again at once if that has gone already. If the delete's reply is
   * lost, the node stays ours to find at the next try (it may even hold by then) or to delete on abandon.
   */
  private Outcome leaveAndWatch(ZooKeeper handle, LockQueue queue, WaitTargets targets, WakeUp wakeUp)
      throws KeeperException {
    CompletableFuture<Boolean> deleted = ZkCalls.delete(handle, lockPath + "/" + node);
    List<CompletableFuture<Stat>> watches = request.mayWait() ? watch(handle, queue, targets, wakeUp) : List.of();
    ZkCalls.await(deleted, zk.callTimeout(), what);
    node = null;
    return awaitWatches(watches, targets);
  }

  /** Sets a watch on each target, back to back. */
  private List<CompletableFuture<Stat>> watch(ZooKeeper handle, LockQueue queue, WaitTargets targets, WakeUp wakeUp) {
    return targets.indexes().stream().map(i -> ZkCalls.watch(handle, lockPath + "/" + queue.name(i), wakeUp)).toList();
  }

  /**
   * Waits for the watches to be set: then the attempt waits for a wake-up, unless a target had gone, or a chained
   * target had been granted (its node written) before its watch was set, which no wake-up will tell.
   */
  private Outcome awaitWatches(List<CompletableFuture<Stat>> watches, WaitTargets targets) throws KeeperException {
    boolean waiting = true;
    for (CompletableFuture<Stat> watch : watches) {
      Stat stat = ZkCalls.await(watch, zk.callTimeout(), what);
      waiting &= stat != null && (!targets.chained() || stat.getMzxid() == stat.getCzxid());
    }
    return waiting ? Outcome.waitAtMost(zk.maxTtl()) : Outcome.retryNow();
  }

  @Override
  public void abandon() {
    String leaving = "Leaving the queue of '" + request.key() + "'";
    ZooKeeper handle = zk.connected();
    try {
      if (node == null && uncertain) {
        adopt(handle, handle.getSessionId(), list(handle).children());
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
