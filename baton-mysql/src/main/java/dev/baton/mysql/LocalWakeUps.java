package dev.baton.mysql;

import dev.baton.spi.WakeUp;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The waiters of this client, by key, woken at once when this client releases or leaves a key's queue. MySQL has no
 * {@code NOTIFY}: a waiter in another client finds out by looking again ({@link MySqlAttempt}'s adaptive poll).
 */
final class LocalWakeUps {
  private final Map<String, Set<WakeUp>> waiting = new ConcurrentHashMap<>();

  void register(String key, WakeUp wakeUp) {
    waiting.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(wakeUp);
  }

  void unregister(String key, WakeUp wakeUp) {
    waiting.computeIfPresent(key, (k, set) -> {
      set.remove(wakeUp);
      return set.isEmpty() ? null : set;
    });
  }

  /** Wakes every waiter of {@code key} in this client. */
  void signal(String key) {
    Set<WakeUp> set = waiting.get(key);
    if (set != null) {
      set.forEach(WakeUp::signal);
    }
  }
}
