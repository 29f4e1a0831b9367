package dev.baton.zookeeper;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;

/**
 * Connects the contract suite's clients, here and in child JVMs, with a short session timeout, so that a
 * crashed holder frees its lock within a second.
 */
public class ZooKeeperClientFactory implements LockClientFactory {
  static final Duration SESSION_TIMEOUT = Duration.ofSeconds(1);

  @Override
  public LockClient connect(String target) {
    return ZooKeeperLockClient.builder().connectString(target).sessionTimeout(SESSION_TIMEOUT).connect();
  }

  /** The same clients, taking the non-fair lock by default. */
  public static final class NonFair extends ZooKeeperClientFactory {
    static final LockOptions OPTIONS = LockOptions.defaults().toBuilder().fair(false).build();

    @Override
    public LockClient connect(String target) {
      return ZooKeeperLockClient.builder().connectString(target).sessionTimeout(SESSION_TIMEOUT)
          .defaultOptions(OPTIONS).connect();
    }
  }
}
