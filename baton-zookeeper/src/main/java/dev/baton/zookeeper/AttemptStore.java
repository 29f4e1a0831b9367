package dev.baton.zookeeper;

import java.time.Duration;
import java.util.List;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;

/**
 * What a {@link QueueAttempt} asks of ZooKeeper: the client's session, which its node lives in; how long it waits;
 * and what the client's ACL means for the nodes it makes and the lock paths it finds.
 */
interface AttemptStore {
  /** The client's session, once it is connected (its handle's session id is the one that owns our nodes). */
  ZooKeeper connected();

  /** How long one call may take: past the session timeout, the session itself is in doubt. */
  Duration callTimeout();

  /** How long a lease counts as held at most ({@link dev.baton.spi.LockBackend#maxTtl()}): a waiter's longest wait. */
  Duration maxTtl();

  /** The ACL the client's nodes are created with. */
  List<ACL> acl();

  /**
   * Creates the missing nodes of {@code path} as container nodes, from the top; returns if one of them is swept away
   * meanwhile, and the caller's create, failing again for want of a parent, comes back here.
   */
  void createParents(ZooKeeper zk, String path, String what);

  /**
   * Whether the lock paths' ACLs must be checked: when this client's nodes are closed to others, a lock path that
   * others may write would let them delete our lock node or add one that poses as the holder.
   */
  boolean guardsLockPaths();

  /**
   * Refuses lock path {@code lockPath} of {@code key} if its ACL, {@code found}, lets anyone outside this client's ACL
   * create or delete its children.
   *
   * @throws dev.baton.PermissionDeniedException naming the path, the identity and what to do
   */
  void checkLockPathAcl(String lockPath, List<ACL> found, String key);
}
