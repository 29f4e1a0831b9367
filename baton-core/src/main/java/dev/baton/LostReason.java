package dev.baton;

/** Why a lease ended without its holder releasing it. */
public enum LostReason {
  /** The store no longer had our entry: it expired, was deleted, or the store restarted without it. */
  ENTRY_REMOVED,
  /** Renewals failed for longer than the ttl, so the store may have freed the lock. */
  RENEWAL_FAILED,
  /** The store's session (ZooKeeper) or lease (etcd) that kept the entry alive expired. */
  SESSION_EXPIRED,
  /** The hold timeout set by {@link LockOptions#holdTimeout()} passed and the lock was freed. */
  HOLD_TIMEOUT,
  /** The client was closed while the lease was held, and the lock was released. */
  CLIENT_CLOSED
}
