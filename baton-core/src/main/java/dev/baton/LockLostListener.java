package dev.baton;

/** Told once when a {@link Lease} ends without its holder releasing it. */
@FunctionalInterface
public interface LockLostListener {

  /**
   * Called on a background thread of the client, once per listener and lease.
   *
   * @param reason why the lease ended
   */
  void lockLost(LostReason reason);
}
