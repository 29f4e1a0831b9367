package dev.baton.etcd;

import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.LockClientSoak;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Thousands of per-order keys on one etcd member: no key and no watcher left behind, by a released key or by a crashed
 * client.
 */
class EtcdSoakTest extends LockClientSoak {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  private static EtcdInspector inspector;
  private static EtcdMetrics metrics;

  @BeforeAll
  static void inspect() {
    inspector = new EtcdInspector(etcd.endpoint());
    metrics = new EtcdMetrics(etcd.endpoint());
  }

  @AfterAll
  static void stopInspecting() {
    inspector.close();
  }

  @Override
  protected Class<? extends LockClientFactory> factoryClass() {
    return EtcdClientFactory.class;
  }

  @Override
  protected String target() {
    return etcd.endpoint();
  }

  @Override
  protected Map<String, Long> storeInventory() {
    return Map.of("keys", inspector.keysInNamespace(), "watchers", metrics.watchers());
  }

  /** A release deletes the entry, and a waiter's watch is cancelled when it is done: nothing waits for an expiry. */
  @Override
  protected Duration leftoverBound() {
    return Duration.ZERO;
  }

  /**
   * A crashed client's entries are bound to its lease, which etcd revokes the session timeout after the last keep-alive,
   * deleting them; its watchers end with its connection.
   */
  @Override
  protected Optional<Duration> crashedClientBound() {
    return Optional.of(EtcdClientFactory.SESSION_TIMEOUT);
  }

  /** Every acquisition is an fsync'd write: fewer keys keep the soak within a minute. */
  @Override
  protected int uncontendedKeys() {
    return 1_000;
  }
}
