package dev.baton.redis;

import dev.baton.LockHolder;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Grant;
import dev.baton.spi.HolderRecord;
import io.lettuce.core.ScriptOutputType;

/**
 * Rewrites the holder field of an entry's hash, with the rewrite script of the entry's layout (Baton's own, or
 * Redisson's in compat mode): one script, which writes only if this owner still holds the entry, and waits for no
 * replica (the record says who holds, it guards nothing).
 */
final class HolderRewrites {
  private HolderRewrites() {}

  /** Whether the entry at {@code lockKey} was still {@code grant}'s owner's, and so rewritten. */
  static boolean rewrite(RedisLink link, LuaScript script, String lockKey, Grant grant, LockHolder holder) {
    AcquireRequest request = grant.request();
    try {
      return script.<Long>run(link.commands(), ScriptOutputType.INTEGER, new String[] {lockKey}, request.ownerId(),
          HolderRecord.write(holder)) == 1L;
    } catch (RuntimeException e) {
      throw link.translate(e, "Rewriting the holder of '" + request.key() + "'");
    }
  }
}
