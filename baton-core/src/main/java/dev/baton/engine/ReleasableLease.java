package dev.baton.engine;

import dev.baton.Lease;

/** A lease its holder can release and be told whether it was still held: what a {@link ThreadHolds} hold rides on. */
interface ReleasableLease extends Lease {

  /** Releases the lease; true if it was still held until this call released it. */
  boolean release();

  /**
   * Releases the lease of a hold of the Lock methods, which no caller sees once released: as {@link #release}, but
   * the store's answer may come after this returns ({@link dev.baton.spi.LockBackend#releaseInOrder}). True unless
   * the lease had ended, or the store answered already that its entry was gone.
   */
  default boolean releaseInOrder() {
    return release();
  }
}
