package dev.baton.zookeeper;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Grant;

/**
 * An entry held in ZooKeeper: our ephemeral node, the session that owns it, and its creation zxid, which tells it
 * from any node of the same name made again.
 *
 * @param fencingToken a zxid, which grows with every write to the ensemble: the node's creation zxid when the entry
 *     was granted in queue order, else that of the write that stamped it when it was granted ({@link QueueAttempt})
 */
record ZkGrant(AcquireRequest request, String path, long sessionId, long czxid, long fencingToken) implements Grant {}
