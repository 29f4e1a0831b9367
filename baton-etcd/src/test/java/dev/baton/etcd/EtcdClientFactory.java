package dev.baton.etcd;

import dev.baton.LockClient;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;

/**
 * Connects the contract suite's clients, here and in child JVMs, with the shortest lease the client accepts
 * (3 s), so that a crashed holder frees its locks within a few seconds.
 */
public class EtcdClientFactory implements LockClientFactory {
  static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

  @Override
  public LockClient connect(String target) {
    return EtcdLockClient.builder().endpoints(target).sessionTimeout(SESSION_TIMEOUT).connect();
  }
}
