package dev.baton.engine;

import dev.baton.Lease;

/** A lease its holder can release and be told whether it was still held: what a {@link ThreadHolds} hold rides on. */
interface ReleasableLease extends Lease {

  /** Releases the lease; true if it was still held until this call released it. */
  boolean release();
}
