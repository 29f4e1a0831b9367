package dev.baton.spi;

import dev.baton.LostReason;

/**
 * Where a session-bound backend keeps the engine's {@link LossListener} and tells it that the session
 * (a ZooKeeper session, an etcd lease) is gone, taking every lock with it.
 */
public final class LossReporter {
  private volatile LossListener listener;

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
