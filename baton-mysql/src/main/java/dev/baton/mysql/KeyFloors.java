package dev.baton.mysql;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * For each key this client acquired lately, a token below which every entry of the key is gone for good: the reads of
 * the key's queue ({@code entries.sql}) start there, so that they skip the entries released before it, which InnoDB
 * keeps in the primary key as delete-marked records until its purge removes them, and which a read visits one by one
 * (an uncontended cycle on one key leaves one each time; under load the purge lags by thousands).
 *
 * <p>A floor is learned in an acquire's transaction ({@link MySqlAttempt}), which holds the counter row's lock: every
 * transaction that took a smaller token has ended, so its entry, if any, is visible to the read. If the read finds no
 * live entry, every entry below our token is released or expired; otherwise every entry below the first live one is.
 * Neither comes back: no statement deletes an entry and makes it again, nor makes an expired entry live. So a read from
 * the floor sees the same live entries as a read of the whole key. At most {@value #MAX_KEYS} keys are kept; past
 * that the floors start again from nothing (a floor of 0: the whole key), which only costs the reads their skip.
 */
final class KeyFloors {
  static final int MAX_KEYS = 4096;

  private final Map<String, Long> floors = new ConcurrentHashMap<>();

  /** The floor of {@code key}: 0 if none is known. */
  long of(String key) {
    return floors.getOrDefault(key, 0L);
  }

  /** Raises the floor of {@code key} to {@code floor}, if that is higher. */
  void raise(String key, long floor) {
    if (floors.size() >= MAX_KEYS && !floors.containsKey(key)) {
      floors.clear();
    }
    floors.merge(key, floor, Math::max);
  }
}
