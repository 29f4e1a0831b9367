package dev.baton.zookeeper;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Grant;

/**
 * A lock held in ZooKeeper: our ephemeral node, the session that owns it, and its creation zxid, which
 * grows with every write to the ensemble and so serves as the fencing token.
 */
record ZkGrant(AcquireRequest request, String path, long sessionId, long czxid) implements Grant {
  @Override
  public long fencingToken() {
    return czxid;
  }
}
