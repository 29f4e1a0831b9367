package dev.baton.redis;

/**
 * Where a lock lives in Redis as Redisson names it ({@code RedissonLock}, {@code RedissonFencedLock},
 * {@code LockPubSub}), for the lock name {@code NAME}, which is the client's prefix (none by default) and the key: the
 * lock hash {@code NAME} itself, the unlock channel {@code redisson_lock__channel:{NAME}} and the fencing counter
 * {@code redisson_lock_token:{NAME}}. Redisson puts the name in braces, a cluster hash tag, unless it has one already:
 * then it only prefixes it ({@code RedissonObject.prefixName}).
 */
record RedissonKeys(String prefix) implements LockNames {

  String lock(String key) {
    return prefix + key;
  }

  String channel(String key) {
    return prefixed("redisson_lock__channel", lock(key));
  }

  String token(String key) {
    return prefixed("redisson_lock_token", lock(key));
  }

  @Override
  public String lockPattern(String keyPrefix) {
    return LockNames.startingWith(lock(keyPrefix));
  }

  @Override
  public String keyOfLock(String lockHash) {
    return lockHash.substring(prefix.length());
  }

  private static String prefixed(String what, String name) {
    return name.contains("{") ? what + ":" + name : what + ":{" + name + "}";
  }
}
