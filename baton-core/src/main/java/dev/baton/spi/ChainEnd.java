package dev.baton.spi;

/** What became of a held entry at the end of a chain of local hand-overs: see {@link LockBackend#keepUnlessOthersWait}. */
public enum ChainEnd {
  /** No one else waited at the store: the entry is still ours, its expiry set anew, and the chain goes on. */
  KEPT,
  /** Someone else waited: the entry is deleted, as {@link LockBackend#release} does, and they are woken. */
  RELEASED,
  /** The store no longer held the entry for us. */
  GONE
}
