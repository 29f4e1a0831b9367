package dev.baton.redis;

import dev.baton.LockClient;
import dev.baton.torture.LockClientFactory;

/** Connects the contract suite's clients, in this JVM and in child JVMs, in Redisson's layout (compat=redisson). */
public final class RedissonCompatClientFactory implements LockClientFactory {
  @Override
  public LockClient connect(String target) {
    return RedisLockClient.builder().uri(target).compat(RedisLockClient.Compat.REDISSON).connect();
  }
}
