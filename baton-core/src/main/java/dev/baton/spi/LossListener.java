package dev.baton.spi;

import dev.baton.LostReason;

/** Receives losses a store reports by itself, such as an expired session. */
public interface LossListener {

  /** The store no longer holds {@code grant} for us. */
  void lost(Grant grant, LostReason reason);

  /** Every grant of this backend is gone, e.g. its session expired. */
  void allLost(LostReason reason);
}
