package dev.baton.zookeeper;

import dev.baton.LockClient;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.LockClientSoak;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Thousands of per-order keys on one ZooKeeper server: no node and no watch left behind. A lock node goes with its
 * release; the container nodes of the key's path go with the server's container sweeps, one level of the path a
 * sweep, here every 200 ms instead of a minute. A crashed client's nodes go with its session.
 */
class ZooKeeperSoakTest extends LockClientSoak {
  private static final String SWEEP_PROPERTY = "znode.container.checkIntervalMs";
  private static final Duration SWEEP = Duration.ofMillis(200);

  static {
    System.setProperty(SWEEP_PROPERTY, Long.toString(SWEEP.toMillis()));
  }

  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  @AfterAll
  static void sweepAsUsual() {
    System.clearProperty(SWEEP_PROPERTY);
  }

  /**
   * Clients whose sessions outlast a busy moment of the soak's server, which runs in this JVM beside hundreds of
   * waiters: with the contract's 1 s session, the running client's session expired while a crashed client took its
   * keys on a loaded machine.
   */
  public static final class SoakClients implements LockClientFactory {
    static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

    @Override
    public LockClient connect(String target) {
      return ZooKeeperLockClient.builder().connectString(target).sessionTimeout(SESSION_TIMEOUT).connect();
    }
  }

  @Override
  protected Class<? extends LockClientFactory> factoryClass() {
    return SoakClients.class;
  }

  @Override
  protected String target() {
    return zookeeper.connectString();
  }

  @Override
  protected Map<String, Long> storeInventory() {
    return Map.of(
        "nodes", (long) zookeeper.server().nodeCount(),
        "watches", (long) zookeeper.server().watchCount());
  }

  /** A sweep per level of the deepest key path (the namespace, soak, run, phase, order). */
  @Override
  protected Duration leftoverBound() {
    return SWEEP.multipliedBy(6);
  }

  /**
   * A crashed client's nodes go when the server expires its session, a session timeout after it last heard from the
   * client; its watches with its connection; then the empty containers of the keys it alone used, sweep by sweep.
   */
  @Override
  protected Optional<Duration> crashedClientBound() {
    return Optional.of(SoakClients.SESSION_TIMEOUT.plus(leftoverBound()));
  }

  /** A new key's path is created node by node, each an fsync'd write: fewer keys keep the soak within a minute. */
  @Override
  protected int uncontendedKeys() {
    return 1_000;
  }
}
