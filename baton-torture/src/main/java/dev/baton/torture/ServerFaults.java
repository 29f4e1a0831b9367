package dev.baton.torture;

/**
 * What a torture may do to the store when it started the store itself: the servers of baton-servers can, a store
 * given by address cannot. Each method returns once the fault is over (the store serves again); a store
 * supports the faults that make sense for it, see {@link TortureServers}.
 */
public interface ServerFaults {
  /** Stops the store and starts it again, keeping its data if it has any. */
  default void restart() {
    throw unsupported(Fault.SERVER_RESTART);
  }

  /** Kills the leader of a replicated store, waits for a new one, and starts the killed member again. */
  default void killLeader() {
    throw unsupported(Fault.LEADER_KILL);
  }

  /** Kills the primary of a primary and its replica, and promotes the replica in its place. */
  default void failover() {
    throw unsupported(Fault.FAILOVER);
  }

  /** Ends every client's connection to the store; the store keeps serving, and clients connect again. */
  default void killConnections() {
    throw unsupported(Fault.CONNECTION_KILL);
  }

  private UnsupportedOperationException unsupported(Fault fault) {
    return new UnsupportedOperationException("The fault " + fault.option() + " does not apply to " + this
        + ": server-restart needs a single server, leader-kill a ZooKeeper ensemble or an etcd cluster, failover"
        + " a Redis primary with a replica, connection-kill a PostgreSQL or MariaDB server.");
  }
}
