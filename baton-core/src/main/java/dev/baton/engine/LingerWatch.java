package dev.baton.engine;

import dev.baton.LockStatus;
import java.time.Duration;

/**
 * Looks out, for an entry that lingers ({@link HeldEntry}), for another client waiting for its key: reads the key's
 * status as a {@link StatusWatch} does, and tells the entry once it counts a waiter ({@link LockStatus#waiters}) or the
 * store signals a change of the key's entries, then stops. A signal counts as a waiter: the holder changes nothing of
 * the key's entries while it holds or lingers (renewals move no entry), so a change is another client's, and one that
 * leaves no trace a read could find (a ZooKeeper non-fair waiter drops its node as it starts to wait, a try drops its
 * entry when it fails) is seen all the same. A store that cannot watch is read every {@link #UNWATCHED_READS_EVERY},
 * which is the cost of a lingering key there: one status read per key four times a second, from the grant of an entry
 * taken to linger to its end.
 */
final class LingerWatch {
  /** How often the status is read when the store cannot watch the key: a waiter is seen within this. */
  static final Duration UNWATCHED_READS_EVERY = Duration.ofMillis(250);
  /** How often it is read besides the store's signals, for a waiter a store's watch misses. */
  static final Duration WATCHED_READS_EVERY = Duration.ofSeconds(2);

  private final HeldEntry entry;
  private final StatusWatch watch;

  LingerWatch(Engine engine, HeldEntry entry) {
    this.entry = entry;
    String key = entry.grant().request().key();
    this.watch = new StatusWatch(engine, key, "'" + key + "' for waiters", UNWATCHED_READS_EVERY, WATCHED_READS_EVERY,
        this::read);
  }

  /** Starts looking: reads now, and from then on as the key changes. */
  void start() {
    watch.changed();
  }

  private void read(LockStatus status, boolean signalled) {
    if (signalled || status.waiters() > 0) {
      close();
      entry.othersWait();
    }
  }

  /** Stops looking: no read starts, and the store's watch is closed. */
  void close() {
    watch.close();
  }
}
