package dev.baton.etcd;

import dev.baton.testkit.EtcdClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract, against a three-member etcd cluster, the clients given all three endpoints. */
class EtcdClusterLockContractTest extends EtcdContract {
  @RegisterExtension
  static final EtcdClusterExtension etcd = new EtcdClusterExtension();

  @Override
  protected String target() {
    return etcd.endpoints();
  }

  /** The cluster's raft term: on a 2-core machine under load, a member that misses heartbeats calls an election. */
  @Override
  protected long leaderElections() {
    return etcd.cluster().raftTerm();
  }
}
