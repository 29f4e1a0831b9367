package dev.baton.redis;

import io.lettuce.core.cluster.SlotHash;

/** Lock keys chosen by the cluster slot their keys hash to, for tests that move or fail over that slot. */
final class SlotKeys {
  private static final RedisKeys KEYS = RedisKeys.tagged(RedisLockClient.DEFAULT_NAMESPACE);

  private SlotKeys() {}

  /** The first key {@code prefix + i} whose lock hashes to {@code slot}, as every key of that lock does. */
  static String keyInSlot(String prefix, int slot) {
    for (int i = 0; ; i++) {
      String key = prefix + i;
      if (SlotHash.getSlot(KEYS.lock(key)) == slot) {
        return key;
      }
    }
  }
}
