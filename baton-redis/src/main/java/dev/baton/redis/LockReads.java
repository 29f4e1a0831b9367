package dev.baton.redis;

import dev.baton.LockStatus;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.LockStatuses;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The statuses made of what a layout's list script returns: per lock, a fixed number of values that start with the
 * (oldest) holder's owner id, its token, the ms left (negative: no expiry) and its holder record, each false when
 * the lock is free; the waiters are the client connections subscribed to the key's wake-up channel.
 */
final class LockReads {
  /** Makes the status of a held lock from the script's values of it, from {@code offset} on. */
  interface HeldReader {
    LockStatus held(String key, List<Object> values, int offset, int waiters);
  }

  private LockReads() {}

  /** The status of {@code key} from the script's values of it, with the waiters subscribed to {@code channel}. */
  static LockStatus status(RedisLink link, String key, List<Object> values, String channel, HeldReader reader) {
    int waiters = link.subscribers(List.of(channel)).getOrDefault(channel, 0L).intValue();
    return values.get(0) == null ? LockStatuses.free(key, waiters) : reader.held(key, values, 0, waiters);
  }

  /**
   * The held locks among {@code keys}, in their order, from the script's values of them, {@code perLock} values each;
   * one PUBSUB NUMSUB of their {@code channel}s counts their waiters (on a cluster, one PUBSUB SHARDNUMSUB per master).
   */
  static List<LockStatus> held(RedisLink link, List<String> keys, List<Object> values, int perLock,
      Function<String, String> channel, HeldReader reader) {
    Map<String, Long> subscribers = link.subscribers(keys.stream().map(channel).toList());
    List<LockStatus> held = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      String key = keys.get(i);
      if (values.get(perLock * i) != null) {
        held.add(reader.held(key, values, perLock * i, subscribers.getOrDefault(channel.apply(key), 0L).intValue()));
      }
    }
    return held;
  }

  /** A lock held alone, or its oldest holder: owner id, token, ms left and holder record, from {@code offset} on. */
  static LockStatus oldestHolder(String key, List<Object> values, int offset, int waiters) {
    long ttl = (Long) values.get(offset + 2);
    Object holder = values.get(offset + 3);
    return LockStatuses.held(key, (String) values.get(offset), Long.parseLong((String) values.get(offset + 1)),
        ttl >= 0 ? Duration.ofMillis(ttl) : null, waiters,
        holder == null ? null : HolderRecord.read((String) holder).holder().orElse(null));
  }
}
