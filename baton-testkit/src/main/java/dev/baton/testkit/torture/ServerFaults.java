package dev.baton.testkit.torture;

/**
 * What a torture may do to the store when it started the store itself: the test kit's servers can, a store
 * given by address cannot. Each method returns once the fault is over (the server serves again).
 */
public interface ServerFaults {
  /** Stops the store and starts it again, keeping its data if it has any. */
  void restart();

  /** Kills the leader of a replicated store and starts it again; unsupported on a single server. */
  default void killLeader() {
    throw new UnsupportedOperationException("This store has no leader to kill: use a ZooKeeper ensemble or an etcd cluster.");
  }
}
