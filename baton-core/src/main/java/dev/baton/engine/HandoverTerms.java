package dev.baton.engine;

import dev.baton.LockHolder.MultiLock;
import dev.baton.LockOptions;
import dev.baton.spi.AcquireRequest;
import java.time.Duration;
import java.util.Optional;

/**
 * What a lease held at the store must be for a waiter to take it over locally: granted with the same ttl
 * and fairness, without a hold timeout (which is counted from each holder's own acquire), and for the same
 * multi-lock's keys, or for none. The last keeps what the entry's holder record says true: an entry written by a
 * lock on its own passes only to a lock on its own, and one written for a multi-lock over some keys only to a
 * multi-lock over the same keys ({@link MultiLock}), as {@code status} and {@code list} show it.
 *
 * @param ttl the ttl the store entry was taken with
 * @param fair whether it queued fairly
 * @param multiLock the keys of the multi-lock the entry was taken for; empty for a lock on its own
 */
record HandoverTerms(Duration ttl, boolean fair, Optional<MultiLock> multiLock) {
  /**
   * The terms a waiter with these options, for {@code multiLock}'s keys or none, accepts; null if it takes no lease
   * over (it has a hold timeout).
   */
  static HandoverTerms of(LockOptions options, Duration ttl, Optional<MultiLock> multiLock) {
    return options.holdTimeout().isPresent() ? null : new HandoverTerms(ttl, options.fair(), multiLock);
  }

  /** The terms of an entry granted for {@code request}, which a waiter must accept to take it over. */
  static HandoverTerms of(AcquireRequest request) {
    return new HandoverTerms(request.ttl(), request.fair(), request.holder().multiLock());
  }
}
