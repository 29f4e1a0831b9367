package dev.baton.engine;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The local queues of the keys a client is using, created on first use and dropped when the last
 * waiter or holder of the key is done, so that a client using many keys over time keeps no garbage.
 */
final class KeyRegistry {
  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
  private volatile String closedMessage;

  private static final class Entry {
    final LocalQueue queue;
    int users; // changed only inside the map's compute functions, which lock the entry

    Entry(int turns) {
      queue = new LocalQueue(turns);
    }
  }

  /**
   * The queue of {@code key}, kept until a matching {@link #release}.
   *
   * @param turns how many threads may have a turn at once in the queue, if it is made now: the same for every call on
   *     one key
   */
  LocalQueue retain(String key, int turns) {
    Entry entry = entries.compute(key, (k, e) -> {
      Entry result = e != null ? e : new Entry(turns);
      result.users++;
      return result;
    });
    String closed = closedMessage;
    if (closed != null) {
      entry.queue.close(closed);
    }
    return entry.queue;
  }

  void release(String key) {
    entries.computeIfPresent(key, (k, e) -> --e.users == 0 ? null : e);
  }

  /** Whether {@code key} has a waiter or a holder now. */
  boolean inUse(String key) {
    return entries.containsKey(key);
  }

  /** How many keys have a waiter or a holder now. */
  int size() {
    return entries.size();
  }

  /** Fails every waiter of every key, and those that come later. */
  void close(String message) {
    closedMessage = message;
    entries.values().forEach(e -> e.queue.close(message));
  }
}
