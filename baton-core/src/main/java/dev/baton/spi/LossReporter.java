package dev.baton.spi;

import dev.baton.LostReason;

/**
 * Where a session-bound backend keeps the engine's {@link LossListener} and tells it that the session
 * (a ZooKeeper session, an etcd lease) is gone, taking every lock with it. For store authors whose entries live and die
 * with a session: {@link LockBackend#setLossListener} stores the listener here, and the session's watcher calls
 * {@link #sessionExpired()}, from any thread, before or after the listener is set.
 */
public final class LossReporter {
  private volatile LossListener listener;

  /** A reporter with no listener yet: a loss reported before {@link #set} reaches no one. */
  public LossReporter() {}

  /** Set by {@link LockBackend#setLossListener}. */
  public void set(LossListener listener) {
    this.listener = listener;
  }

  /** Every lock of the backend is gone: its session expired. */
  public void sessionExpired() {
    LossListener current = listener;
    if (current != null) {
      current.allLost(LostReason.SESSION_EXPIRED);
    }
  }
}
