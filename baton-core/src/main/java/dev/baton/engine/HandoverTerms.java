package dev.baton.engine;

import dev.baton.LockOptions;
import java.time.Duration;

/**
 * What a lease held at the store must be for a waiter to take it over locally: granted with the same ttl
 * and fairness, and without a hold timeout (which is counted from each holder's own acquire).
 *
 * @param ttl the ttl the store entry was taken with
 * @param fair whether it queued fairly
 */
record HandoverTerms(Duration ttl, boolean fair) {
  /** The terms a waiter with these options accepts, or null if it takes no lease over (it has a hold timeout). */
  static HandoverTerms of(LockOptions options, Duration ttl) {
    return options.holdTimeout().isPresent() ? null : new HandoverTerms(ttl, options.fair());
  }
}
