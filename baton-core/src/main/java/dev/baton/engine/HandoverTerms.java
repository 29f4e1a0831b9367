package dev.baton.engine;

import dev.baton.LockHolder.MultiLock;
import dev.baton.LockOptions;
import dev.baton.spi.AcquireRequest;
import java.time.Duration;
import java.util.Optional;

/**
 * What a lease held at the store must be for a waiter to take it over locally: granted with the same ttl
 * and fairness, without a hold timeout (which is counted from each holder's own acquire), and, where the store cannot
 * rewrite the entry's holder record ({@link dev.baton.spi.LockBackend#rewritesHolders}), for the same multi-lock's
 * keys, or for none. The last keeps what the record says true on such a store: an entry written by a lock on its own
 * passes only to a lock on its own, and one written for a multi-lock over some keys only to a multi-lock over the same
 * keys ({@link MultiLock}), as {@code status} and {@code list} show it. Where the store can rewrite it, an entry passes
 * to a waiter for any keys, and the record is rewritten to name the waiter's ({@link HeldEntry}).
 *
 * @param ttl the ttl the store entry was taken with
 * @param fair whether it queued fairly
 * @param multiLock the keys of the multi-lock the entry is held for (an entry's terms) or wanted for (a waiter's);
 *     empty for a lock on its own
 * @param anyKeys whether the entry passes to a waiter for any multi-lock's keys, or none (its record can be rewritten);
 *     false in a waiter's terms
 */
record HandoverTerms(Duration ttl, boolean fair, Optional<MultiLock> multiLock, boolean anyKeys) {
  /**
   * The terms a waiter with these options, for {@code multiLock}'s keys or none, accepts; null if it takes no lease
   * over (it has a hold timeout).
   */
  static HandoverTerms of(LockOptions options, Duration ttl, Optional<MultiLock> multiLock) {
    return options.holdTimeout().isPresent() ? null : new HandoverTerms(ttl, options.fair(), multiLock, false);
  }

  /**
   * The terms of an entry granted for {@code request} and held now for {@code multiLock}'s keys (or none), which a
   * waiter must accept to take it over; {@code anyKeys} if the store can rewrite the entry's holder record.
   */
  static HandoverTerms of(AcquireRequest request, Optional<MultiLock> multiLock, boolean anyKeys) {
    return new HandoverTerms(request.ttl(), request.fair(), multiLock, anyKeys);
  }

  /** Whether an entry on these terms may pass to a waiter that accepts {@code waiter}'s (null: none). */
  boolean passTo(HandoverTerms waiter) {
    return waiter != null && ttl.equals(waiter.ttl()) && fair == waiter.fair()
        && (anyKeys || multiLock.equals(waiter.multiLock()));
  }
}
