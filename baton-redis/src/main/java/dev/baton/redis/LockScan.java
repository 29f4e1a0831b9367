package dev.baton.redis;

import dev.baton.spi.KeyOrder;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Finds the lock hashes under a key prefix with {@code SCAN} (on a cluster, Lettuce's SCAN walks every master in turn).
 * SCAN walks the whole database in no particular order,
 * so the first keys in key order are known only at its end: it keeps the {@code limit} smallest as it goes, never
 * more.
 */
final class LockScan {
  /** How many keys the server looks at per SCAN call: a thousand round trips for a database of a million keys. */
  private static final long KEYS_PER_CALL = 1000;

  private LockScan() {}

  /** The lock keys under {@code keyPrefix} (Baton's keys, not Redis's), the first {@code limit} in key order. */
  static List<String> firstKeys(AwaitedCommands redis, LockNames keys, String keyPrefix, int limit) {
    ScanArgs args = ScanArgs.Builder.matches(keys.lockPattern(keyPrefix)).limit(KEYS_PER_CALL);
    TreeSet<String> first = new TreeSet<>(KeyOrder.BY_CODE_POINT);
    ScanCursor cursor = ScanCursor.INITIAL;
    do {
      KeyScanCursor<String> page = redis.await(redis.async().scan(cursor, args));
      for (String lockHash : page.getKeys()) {
        first.add(keys.keyOfLock(lockHash));
        if (first.size() > limit) {
          first.pollLast();
        }
      }
      cursor = page;
    } while (!cursor.isFinished());
    return new ArrayList<>(first);
  }
}
