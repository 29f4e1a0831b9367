package dev.baton.zookeeper;

import dev.baton.testkit.LockClientContract;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The backend-independent contract on ZooKeeper; subclasses choose the server and the lock variant. */
abstract class ZooKeeperContract extends LockClientContract {
  private ZkInspector inspector;

  @BeforeEach
  final void inspect() {
    inspector = new ZkInspector(target());
  }

  @AfterEach
  final void stopInspecting() throws InterruptedException {
    inspector.close();
  }

  @Override
  protected Class<? extends LockClientFactory> factoryClass() {
    return baseOptions().fair() ? ZooKeeperClientFactory.class : ZooKeeperClientFactory.NonFair.class;
  }

  /** A crashed holder's nodes go when its session expires, whatever the lock's ttl. */
  @Override
  protected Duration crashFreeBound(Duration ttl) {
    return ZooKeeperClientFactory.SESSION_TIMEOUT;
  }

  @Override
  protected void removeEntryBehindOurBack(String key) {
    try {
      inspector.deleteLockNodes(key);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  protected int entriesAtStore(String key) {
    try {
      return inspector.lockNodes(key).size();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
