package dev.baton.zookeeper;

import dev.baton.internal.ReleasesAhead;
import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.LockStatus.Mode;
import dev.baton.PermissionDeniedException;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Grant;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.KeyWatch;
import dev.baton.spi.LockBackend;
import dev.baton.spi.LockStatuses;
import dev.baton.spi.LossListener;
import dev.baton.spi.LossReporter;
import dev.baton.spi.QueueRule;
import dev.baton.spi.ReleaseRequestListener;
import dev.baton.spi.WakeUp;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * Baton's lock protocol on a ZooKeeper ensemble: ephemeral nodes of one session per client, under
 * container nodes that the server removes once they are empty. Its attempts ({@link QueueAttempt}) see it as their
 * {@link AttemptStore}.
 */
final class ZooKeeperBackend implements LockBackend, AttemptStore {
  private final ZooKeeperSession session;
  private final ZkPaths paths;
  private final List<ACL> acl;
  private final boolean guardsLockPaths;
  private final ZooKeeperLockClient.Compat compat;
  private final LossReporter losses = new LossReporter();
  private final ReleaseRequestNodes releaseRequests;

  private ZooKeeperBackend(ZooKeeperSession session, ZkPaths paths, List<ACL> acl, ZooKeeperLockClient.Compat compat) {
    this.session = session;
    this.paths = paths;
    this.acl = acl;
    this.compat = compat;
    this.releaseRequests = new ReleaseRequestNodes(this, paths, compat == ZooKeeperLockClient.Compat.CURATOR);
    this.guardsLockPaths = acl.stream().noneMatch(entry -> entry.getId().equals(ZooDefs.Ids.ANYONE_ID_UNSAFE)
        && (entry.getPerms() & (ZooDefs.Perms.CREATE | ZooDefs.Perms.DELETE)) != 0);
  }

  /** Opens the client's session; a session that expires later is replaced and its locks reported lost. */
  static ZooKeeperBackend connect(ZooKeeperSettings settings) {
    ZooKeeperBackend[] self = new ZooKeeperBackend[1];
    ZooKeeperSession session = ZooKeeperSession.open(settings.connectString(), settings.sessionTimeout(),
        settings.connectTimeout(), settings.digest(), () -> self[0].losses.sessionExpired());
    self[0] = new ZooKeeperBackend(session, new ZkPaths(settings.namespace()), settings.acl(), settings.compat());
    return self[0];
  }

  @Override
  public void setLossListener(LossListener listener) {
    losses.set(listener);
  }

  /** See {@link ReleaseRequestNodes}. */
  @Override
  public int requestRelease(String key) {
    return releaseRequests.request(key);
  }

  @Override
  public void setReleaseRequestListener(ReleaseRequestListener listener) {
    releaseRequests.setListener(listener);
  }

  @Override
  public void listenForReleaseRequests(Grant grant) {
    String what = "Listening for requests to release '" + grant.request().key() + "'";
    try {
      releaseRequests.listen(grant.request().clientId(), what);
      releaseRequests.watchForCuratorRevocation((ZkGrant) grant);
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, what);
    }
  }

  @Override
  public String name() {
    return "zookeeper";
  }

  @Override
  public void checkKey(String key) {
    paths.checkKeyHere(key);
  }

  /** A lease counts as held no longer than the session timeout after the last contact: then the session may be gone. */
  @Override
  public Duration maxTtl() {
    return session.timeout();
  }

  /**
   * Held by the head of the queue, whichever kind of acquire made it and whoever holds beside it; its token is the
   * one it was granted with (the zxid of its node's last write). The waiters are the entries their rule does not let
   * hold (a non-fair waiter keeps no node while it waits, so it is not counted). Read after a {@code sync}, sent back
   * to back with the reads: what another client wrote before (a release, a resignation) is seen, as a reader of
   * {@code status} or of who leads expects, whichever server of an ensemble this client talks to.
   */
  @Override
  public LockStatus status(String key) {
    String lockPath = paths.lockPath(key);
    String what = "Reading the status of '" + key + "'";
    ZooKeeper zk = session.connected();
    ReleasesAhead.awaitOthers(lockPath, zk.getSessionId(), callTimeout());
    try {
      CompletableFuture<Void> synced = ZkCalls.sync(zk, lockPath);
      while (true) {
        CompletableFuture<List<String>> children = ZkCalls.children(zk, lockPath);
        ZkCalls.await(synced, callTimeout(), what);
        LockQueue queue = LockQueue.of(ZkCalls.await(children, callTimeout(), what));
        if (queue.isEmpty()) {
          return LockStatuses.free(key, 0);
        }
        try {
          ZkCalls.Data holder = ZkCalls.await(ZkCalls.data(zk, lockPath + "/" + queue.name(0)), callTimeout(), what);
          return held(key, holder, queue);
        } catch (KeeperException.NoNodeException e) {
          // The holder released between the listing and the read: read the queue again.
        }
      }
    } catch (KeeperException.NoNodeException e) {
      return LockStatuses.free(key, 0);
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, what);
    }
  }

  /**
   * The status of a lock held by the node read as {@code holder}, the oldest of {@code queue}. A node is written only when it is granted with a
   * token of its own, so its mzxid is the token it was granted with (its czxid if never written), or when its holder
   * record is rewritten, which then carries that token ({@link RewrittenRecords}).
   */
  static LockStatus held(String key, ZkCalls.Data holder, LockQueue queue) {
    String data = new String(holder.bytes(), StandardCharsets.UTF_8);
    return queue.describe(HolderRecord.read(data), key, RewrittenRecords.token(data, holder.stat()));
  }

  @Override
  public Optional<KeyWatch> watchKey(String key, WakeUp changed) {
    String what = "Watching '" + key + "'";
    try {
      return Optional.of(ZkKeyWatch.set(session.connected(), paths.lockPath(key), changed, callTimeout(), what));
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, what);
    }
  }

  /**
   * Walks the container nodes under the prefix in key order ({@link LockListing}), after a {@code sync} as
   * {@link #status} makes; the holder of each as {@link #status} reads it.
   */
  @Override
  public List<LockStatus> list(String keyPrefix, int limit) {
    ZkPaths.checkPrefix(keyPrefix);
    ZooKeeper zk = session.connected();
    LockListing listing = new LockListing(zk, paths, callTimeout(), keyPrefix);
    String what = "Listing the locks under '" + keyPrefix + "'";
    ReleasesAhead.awaitOthersUnder(paths.namespace(), zk.getSessionId(), callTimeout());
    try {
      ZkCalls.await(ZkCalls.sync(zk, paths.namespace()), callTimeout(), what);
      return listing.list(keyPrefix, limit);
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, what);
    }
  }

  @Override
  public Attempt newAttempt(AcquireRequest request) {
    return new QueueAttempt(this, paths.lockPath(request.key()), request);
  }

  /**
   * With {@link ZooKeeperLockClient.Compat#CURATOR}, refuses what does not mix with Curator's
   * {@code InterProcessMutex} on a shared path: it sorts a queue by the sequence after {@code lock-} in each node's
   * name, and a read or permit node has none, so it would sort last whatever its age; and its waiters keep their
   * place in line, where a non-fair waiter gives its place up at every wake-up and would wait behind all of them.
   */
  @Override
  public void checkAcquisition(String key, QueueRule rule, boolean fair) {
    if (compat != ZooKeeperLockClient.Compat.CURATOR) {
      return;
    }
    if (rule.mode() != Mode.EXCLUSIVE) {
      throw new UnsupportedOperationException("'" + key + "' cannot be taken as " + rule + ": a ZooKeeper client"
          + " compatible with Curator (compat=curator) takes locks, write locks and leadership only, whose nodes"
          + " Curator's InterProcessMutex orders as its own. Use a client without compat for read locks and"
          + " semaphores, on keys no Curator client locks.");
    }
    if (!fair) {
      throw new IllegalArgumentException("'" + key + "' cannot be taken non-fair: a ZooKeeper client compatible with"
          + " Curator (compat=curator) takes fair locks only, as Curator's InterProcessMutex is; drop fair(false).");
    }
  }

  @Override
  public CompletionStage<Boolean> renew(Grant grant, Duration expiry) {
    ZkGrant zkGrant = (ZkGrant) grant;
    ZooKeeper zk;
    try {
      zk = session.connected();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (zk.getSessionId() != zkGrant.sessionId()) {
      return CompletableFuture.completedFuture(false);
    }
    return ZkCalls.exists(zk, zkGrant.path()).thenApply(stat -> isOurs(stat, zkGrant));
  }

  /** Deletes our node. Its name carries the acquisition's owner id and is never made again, so one delete does it. */
  @Override
  public boolean release(Grant grant) {
    ZkGrant zkGrant = (ZkGrant) grant;
    String what = "Releasing '" + grant.request().key() + "'";
    ZooKeeper zk = session.connected();
    if (zk.getSessionId() != zkGrant.sessionId()) {
      return false;
    }
    try {
      return ZkCalls.await(ZkCalls.delete(zk, zkGrant.path()), callTimeout(), what);
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, what);
    }
  }

  /**
   * Compatible with Curator, no: a Curator {@code Revoker} asks for a release by writing the holder's node, which a
   * rewrite could overwrite.
   */
  @Override
  public boolean rewritesHolders() {
    return compat != ZooKeeperLockClient.Compat.CURATOR;
  }

  /**
   * One {@code setData} of our own node, with the token it was granted with ({@link RewrittenRecords}). Its name
   * carries the acquisition's owner id and is never made again, so the write finds it only while it is ours. A data
   * watch of another client's waiter on the node fires: that waiter looks again, and waits again.
   */
  @Override
  public boolean rewriteHolder(Grant grant, LockHolder holder) {
    ZkGrant zkGrant = (ZkGrant) grant;
    String what = "Rewriting the holder of '" + grant.request().key() + "'";
    ZooKeeper zk = session.connected();
    if (zk.getSessionId() != zkGrant.sessionId()) {
      return false;
    }
    try {
      return ZkCalls.await(ZkCalls.setData(zk, zkGrant.path(), RewrittenRecords.data(zkGrant, holder)), callTimeout(),
          what);
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, what);
    }
  }

  /**
   * Sends the delete of our node and returns: the session's later requests (the next acquire of this client) are
   * served after it, and another client of this process waits for its answer before it acquires the key, reads its
   * status or lists it ({@link ReleasesAhead}). A session that expired meanwhile has taken the node with it: that
   * is known here, without asking.
   */
  @Override
  public CompletionStage<Boolean> releaseInOrder(Grant grant) {
    ZkGrant zkGrant = (ZkGrant) grant;
    ZooKeeper zk = session.connected();
    if (zk.getSessionId() != zkGrant.sessionId()) {
      return CompletableFuture.completedFuture(false);
    }
    String path = zkGrant.path();
    CompletableFuture<Boolean> answer = ZkCalls.delete(zk, path).exceptionallyCompose(error ->
        CompletableFuture.failedFuture(error instanceof KeeperException keeper
            ? ZkErrors.translate(keeper, "Releasing '" + grant.request().key() + "'") : error));
    ReleasesAhead.add(path.substring(0, path.lastIndexOf('/')), zkGrant.sessionId(), answer);
    return answer;
  }

  private static boolean isOurs(Stat stat, ZkGrant grant) {
    return stat != null && stat.getEphemeralOwner() == grant.sessionId() && stat.getCzxid() == grant.czxid();
  }

  @Override
  public ZooKeeper connected() {
    return session.connected();
  }

  @Override
  public List<ACL> acl() {
    return acl;
  }

  @Override
  public Duration callTimeout() {
    return session.timeout();
  }

  /**
   * Creates the missing nodes of {@code path} as container nodes, from the top. The server's container sweep
   * deletes an empty container at any time, so one of them may be gone again before the next create: then this
   * stops, and the caller's create, failing again for want of a parent, brings it back here.
   */
  @Override
  public void createParents(ZooKeeper zk, String path, String what) {
    try {
      for (int slash = path.indexOf('/', 1); slash > 0; slash = path.indexOf('/', slash + 1)) {
        createContainer(zk, path.substring(0, slash), what);
      }
      createContainer(zk, path, what);
    } catch (KeeperException.NoNodeException e) {
      // Swept away since we made or saw it: the caller tries again.
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, what);
    }
  }

  private void createContainer(ZooKeeper zk, String path, String what) throws KeeperException {
    try {
      ZkCalls.await(ZkCalls.create(zk, path, new byte[0], acl, CreateMode.CONTAINER), callTimeout(), what);
    } catch (KeeperException.NodeExistsException e) {
      // Someone else made it: fine.
    }
  }

  /**
   * Whether the lock paths' ACLs must be checked: when this client's nodes are closed to others (digest auth, or an
   * ACL that gives no one else create and delete), a lock path that others may write would let them delete our
   * lock node or add one that poses as the holder.
   */
  @Override
  public boolean guardsLockPaths() {
    return guardsLockPaths;
  }

  /**
   * Refuses a lock path whose ACL lets anyone outside this client's ACL create or delete its children: a path that
   * someone made before us with an open ACL, under which we would hold nothing safely.
   */
  @Override
  public void checkLockPathAcl(String lockPath, List<ACL> found, String key) {
    for (ACL entry : found) {
      boolean writes = (entry.getPerms() & (ZooDefs.Perms.CREATE | ZooDefs.Perms.DELETE)) != 0;
      if (writes && acl.stream().noneMatch(ours -> ours.getId().equals(entry.getId()))) {
        throw new PermissionDeniedException("Lock '" + key + "' was not taken: its path " + lockPath
            + " lets " + entry.getId().getScheme() + ":" + entry.getId().getId() + " create or delete lock nodes,"
            + " so anyone with that identity could delete our lock or pose as its holder. It was not made by this"
            + " client's user; delete it (it holds no lock of ours) or give it this client's ACL.");
      }
    }
  }

  @Override
  public void close() {
    session.close();
  }
}
