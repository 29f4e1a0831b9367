package dev.baton;

/**
 * The states of a {@link Lease}. A lease starts {@link #HELD} (waiting happens before a lease exists)
 * and moves to exactly one of the final states, once.
 */
public enum LeaseState {
  /** The lock is ours. */
  HELD,
  /**
   * Released by {@link Lease#close()} or by closing the client: no longer ours, and no longer renewed. Where the store
   * refused the release ({@code close()} threw), the entry expires at the store within its ttl instead.
   */
  RELEASED,
  /** The hold timeout ({@link LockOptions#holdTimeout()}) passed and the lock was freed. */
  EXPIRED,
  /** The store no longer holds the lock for us; see {@link LostReason}. */
  LOST
}
