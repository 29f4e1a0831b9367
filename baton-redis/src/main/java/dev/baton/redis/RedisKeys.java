package dev.baton.redis;

/**
 * Where a lock lives in Redis, under the client's prefix ({@code baton:} by default): the lock hash
 * {@code baton:lock:KEY}, the fencing counter {@code baton:fence:KEY} (kept, so that tokens keep growing)
 * and the wake-up channel {@code baton:wake:KEY}.
 */
record RedisKeys(String prefix) {

  String lock(String key) {
    return prefix + "lock:" + key;
  }

  String fence(String key) {
    return prefix + "fence:" + key;
  }

  String channel(String key) {
    return prefix + "wake:" + key;
  }
}
