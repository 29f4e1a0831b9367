package dev.baton.engine;

import dev.baton.LockOptions;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shared entries of one client that readers may join without a round trip: the joiner is a new lease on the same
 * entry ({@link HeldEntry#join}), with the same fencing token, and the entry is renewed once and released at the store
 * when the last of the leases on it leaves. So the readers of one process cost the store one entry and one renewal
 * stream, where each would otherwise wait its turn to talk to the store and renew an entry of its own.
 *
 * <p>A join is refused, and the reader queues at the store as any entry would, when the terms differ (a hold
 * timeout, another ttl or fairness), when the entry has less than a third of its ttl of validity left, and while an
 * exclusive acquisition of the key is under way or held in this client (a local writer waits for the readers ahead of
 * it at the store, so readers that joined behind it would starve it). Writers of other processes cannot be seen from
 * here: a bounded number of joins per entry bounds how long they wait for a stream of local readers, as a chain of
 * hand-overs bounds it for an exclusive entry; later readers queue at the store behind them.
 */
final class LocalShares {
  /** The open entry of each local key; entries no longer open keep the leases already on them. */
  private final ConcurrentHashMap<String, HeldEntry> open = new ConcurrentHashMap<>();

  /**
   * A new lease on the open shared entry of {@code localKey}, or null if there is none that a reader with
   * {@code options} (its ttl already capped as the store caps it: {@code ttl}) may join.
   */
  EngineLease join(String localKey, LockOptions options, Duration ttl) {
    HeldEntry entry = open.get(localKey);
    return entry == null ? null : entry.join(options, ttl);
  }

  /** A shared entry just granted at the store: later readers of this client may join it. */
  void host(HeldEntry entry) {
    if (entry.grant().request().holdTimeout() != null) {
      return; // a hold timeout ends its lease on its own: no other lease rides on its entry
    }
    open.put(entry.localKey(), entry);
  }

  /** {@code entry} ended: no reader joins it any more. */
  void close(HeldEntry entry) {
    open.remove(entry.localKey(), entry);
  }
}
