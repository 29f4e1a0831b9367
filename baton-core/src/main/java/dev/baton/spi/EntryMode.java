package dev.baton.spi;

/** How an entry in a key's queue at the store is held: alone, beside others of its kind, or as one of N permits. */
public enum EntryMode {
  /** Held alone: a mutex, a write lock. It conflicts with every other entry. */
  EXCLUSIVE,
  /** Held beside other shared entries: a read lock. It conflicts with exclusive entries only. */
  SHARED,
  /** One of a limited number of permits: a semaphore. It conflicts with every other entry but counts. */
  PERMIT;

  /** Whether an entry of this mode must wait for an entry of mode {@code ahead} that is older than it. */
  public boolean conflictsWith(EntryMode ahead) {
    return this != SHARED || ahead == EXCLUSIVE;
  }
}
