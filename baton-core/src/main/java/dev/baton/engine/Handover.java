package dev.baton.engine;

/** What a releasing holder's offer to the next local waiter came to: see {@link HeldEntry}. */
enum Handover {
  /** The waiter took the entry over: it stays at the store. */
  HANDED_OVER,
  /** A chain ended and the store released the entry, since another client waited for it. */
  RELEASED,
  /** A chain ended and the store no longer held the entry for us. */
  GONE,
  /** Nothing was handed over or released: the holder releases at the store as usual. */
  NONE
}
