package dev.baton.redis;

/**
 * Where a lock lives in Redis, under the client's prefix ({@code baton:} by default): the lock hash
 * {@code baton:lock:KEY} (its exclusive holder, or its shared entries and permits), the fencing counter
 * {@code baton:fence:KEY} (kept until the server's clock has passed its last token by a ttl, so that tokens keep
 * growing: see acquire.lua), the wake-up channel {@code baton:wake:KEY}, {@code baton:yield:KEY}, which for a moment
 * after a release that someone waited for names the client that released, to whom the lock is refused meanwhile, and
 * {@code baton:writers:KEY}, the exclusive acquisitions waiting for the lock, which hold back the shared entries and
 * permits that come after them. Every one of them expires or is unsubscribed once the key is released and no one
 * waits for it.
 */
record RedisKeys(String prefix) implements LockNames {

  String lock(String key) {
    return prefix + "lock:" + key;
  }

  String fence(String key) {
    return prefix + "fence:" + key;
  }

  String yielded(String key) {
    return prefix + "yield:" + key;
  }

  String writers(String key) {
    return prefix + "writers:" + key;
  }

  String channel(String key) {
    return prefix + "wake:" + key;
  }

  @Override
  public String lockPattern(String keyPrefix) {
    return LockNames.startingWith(lock(keyPrefix));
  }

  @Override
  public String keyOfLock(String lockHash) {
    return lockHash.substring(lock("").length());
  }
}
