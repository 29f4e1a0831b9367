package dev.baton.etcd;

import dev.baton.testkit.LockClientContract;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;

/**
 * The backend-independent contract on etcd; subclasses choose the single member or the cluster. One inspector
 * serves the tests of a class and is closed after its last.
 */
abstract class EtcdContract extends LockClientContract {
  private static EtcdInspector inspector;
  private static String inspected;

  @AfterAll
  static void stopInspecting() {
    if (inspector != null) {
      inspector.close();
      inspector = null;
      inspected = null;
    }
  }

  private EtcdInspector inspector() {
    String target = target();
    if (inspector == null || !target.equals(inspected)) {
      stopInspecting();
      inspector = new EtcdInspector(target);
      inspected = target;
    }
    return inspector;
  }

  @Override
  protected Class<? extends LockClientFactory> factoryClass() {
    return EtcdClientFactory.class;
  }

  /** A crashed holder's entries go when its lease expires, unrenewed, whatever the lock's ttl. */
  @Override
  protected Duration crashFreeBound(Duration ttl) {
    return EtcdClientFactory.SESSION_TIMEOUT;
  }

  @Override
  protected void removeEntryBehindOurBack(String key) {
    inspector().deleteEntries(key);
  }

  @Override
  protected int entriesAtStore(String key) {
    return inspector().count(key);
  }
}
