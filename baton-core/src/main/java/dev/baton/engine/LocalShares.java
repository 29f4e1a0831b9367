package dev.baton.engine;

import dev.baton.LockOptions;
import dev.baton.spi.AcquireRequest;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Lets a reader join a shared entry its client already holds at the store, without a round trip: the joiner is a
 * new lease on the same grant, with the same fencing token, renewed by the watchdog as every lease is; the entry is
 * released at the store when the last of the leases on it ends. So the readers of one process cost the store one
 * entry, where each would otherwise wait its turn to talk to the store.
 *
 * <p>A join is refused, and the reader queues at the store as any entry would, when the terms differ (a hold
 * timeout, another ttl or fairness), when the entry has less than a third of its ttl of validity left, and while an
 * exclusive acquisition of the key is under way or held in this client (a local writer waits for the readers ahead of
 * it at the store, so readers that joined behind it would starve it). Writers of other processes cannot be seen from
 * here: {@value #MAX_JOINS} joins per entry bound how long they wait for a stream of local readers, as a chain of
 * hand-overs bounds it for an exclusive entry ({@link LocalHandovers}); later readers queue at the store behind them.
 */
final class LocalShares {
  /** How many readers may join one entry, so that a writer of another process waits at most that many more reads. */
  private static final int MAX_JOINS = 64;

  /** The open share of each local key; the leases on an entry whose share is no longer open keep theirs. */
  private final Map<String, Share> open = new HashMap<>();

  /** The leases on one shared entry; guarded by the {@link LocalShares} that made it. */
  static final class Share {
    private final String localKey;
    private final AcquireRequest request;
    private final Set<EngineLease> members = new HashSet<>();
    private int joins;

    private Share(String localKey, AcquireRequest request) {
      this.localKey = localKey;
      this.request = request;
    }
  }

  /**
   * A new lease on the open shared entry of {@code localKey}, or null if there is none that a reader with
   * {@code options} (its ttl already capped as the store caps it: {@code ttl}) may join.
   */
  synchronized EngineLease join(String localKey, LockOptions options, Duration ttl) {
    Share share = open.get(localKey);
    if (share == null || share.joins >= MAX_JOINS || options.leaseTime().isPresent()
        || !share.request.ttl().equals(ttl) || share.request.fair() != options.fair()) {
      return null;
    }
    long minValidity = ttl.toNanos() / 3;
    EngineLease anchor = share.members.stream().filter(member -> member.mayBeJoined(minValidity))
        .max(Comparator.comparingLong(EngineLease::validUntil)).orElse(null);
    if (anchor == null) {
      return null;
    }
    EngineLease joiner = anchor.joiner(share);
    share.members.add(joiner);
    share.joins++;
    return joiner;
  }

  /** A shared entry just granted at the store to {@code lease}: later readers of this client may join it. */
  synchronized void host(String localKey, EngineLease lease) {
    AcquireRequest request = lease.grant().request();
    if (request.leaseTime() != null) {
      return; // a hold timeout ends this lease on its own: no other lease rides on its entry
    }
    Share share = new Share(localKey, request);
    share.members.add(lease);
    lease.setShare(share);
    open.put(localKey, share);
  }

  /**
   * Takes {@code lease} out of its share: whether its entry is to be released at the store, as it is when the lease
   * was the last on it, or shared it with none.
   */
  synchronized boolean leave(EngineLease lease) {
    Share share = lease.share();
    if (share == null) {
      return true;
    }
    share.members.remove(lease);
    if (!share.members.isEmpty()) {
      return false;
    }
    open.remove(share.localKey, share);
    return true;
  }
}
