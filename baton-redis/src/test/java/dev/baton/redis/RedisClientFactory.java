package dev.baton.redis;

import dev.baton.LockClient;
import dev.baton.torture.LockClientFactory;

/** Connects the contract suite's clients, in this JVM and in child JVMs, to the test's Redis server. */
public final class RedisClientFactory implements LockClientFactory {
  @Override
  public LockClient connect(String target) {
    return RedisLockClient.connect(target);
  }
}
