package dev.baton.zookeeper;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Outcome;
import dev.baton.spi.WakeUp;
import java.util.Arrays;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The non-fair lock: one ephemeral node per lock; whoever creates it holds; the others watch it and
 * race again when it goes. Simpler than the fair queue and one round trip cheaper to wait on, but every
 * waiter wakes at each release (the herd effect): for small groups. Its node is not a lock node of the
 * fair queue, so fair and non-fair holders of one key do not exclude each other: use one kind per key.
 */
final class ExclusiveAttempt implements Attempt {
  static final String NODE = ZkPaths.RESERVED_PREFIX + "exclusive";

  private final ZooKeeperBackend zk;
  private final AcquireRequest request;
  private final String lockPath;
  private final String path;
  private final String what;
  private boolean uncertain;

  ExclusiveAttempt(ZooKeeperBackend zk, AcquireRequest request) {
    this.zk = zk;
    this.request = request;
    this.lockPath = zk.lockPath(request.key());
    this.path = lockPath + "/" + NODE;
    this.what = "Acquiring '" + request.key() + "'";
  }

  @Override
  public Outcome tryAcquire(WakeUp wakeUp) {
    ZooKeeper handle = zk.connected();
    long session = handle.getSessionId();
    try {
      if (uncertain) {
        Stat ours = ourNode(handle, session);
        uncertain = false;
        if (ours != null) {
          return Outcome.granted(new ZkGrant(request, path, session, ours.getCzxid()));
        }
      }
      ZkCalls.Created created = ZkCalls.await(ZkCalls.create(handle, path, ZooKeeperBackend.ownerData(request), zk.acl(),
          CreateMode.EPHEMERAL), zk.callTimeout(), what);
      return Outcome.granted(new ZkGrant(request, path, session, created.stat().getCzxid()));
    } catch (KeeperException.NodeExistsException e) {
      return zk.watch(handle, path, wakeUp, what) ? Outcome.waitAtMost(zk.maxTtl()) : Outcome.retryNow();
    } catch (KeeperException.NoNodeException e) {
      zk.createParents(handle, lockPath, what);
      return Outcome.retryNow();
    } catch (KeeperException e) {
      uncertain = ZkCalls.outcomeUnknown(e);
      throw ZkErrors.translate(e, what);
    } catch (RuntimeException e) {
      uncertain = true;
      throw e;
    }
  }

  /** The node's stat if it is there and was written by this attempt in this session. */
  private Stat ourNode(ZooKeeper handle, long session) throws KeeperException {
    Stat stat = new Stat();
    try {
      byte[] data = handle.getData(path, false, stat);
      boolean ours = stat.getEphemeralOwner() == session && Arrays.equals(data, ZooKeeperBackend.ownerData(request));
      return ours ? stat : null;
    } catch (KeeperException.NoNodeException e) {
      return null;
    } catch (InterruptedException e) {
      throw ZkErrors.interrupted(what, e);
    }
  }

  @Override
  public void abandon() {
    if (!uncertain) {
      return;
    }
    ZooKeeper handle = zk.connected();
    try {
      Stat ours = ourNode(handle, handle.getSessionId());
      if (ours != null) {
        handle.delete(path, ours.getVersion());
      }
      uncertain = false;
    } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
      uncertain = false;
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, "Giving up '" + request.key() + "'");
    } catch (InterruptedException e) {
      throw ZkErrors.interrupted("Giving up '" + request.key() + "'", e);
    }
  }
}
