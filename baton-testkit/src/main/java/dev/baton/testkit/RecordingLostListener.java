package dev.baton.testkit;

import dev.baton.LockLostListener;
import dev.baton.LostReason;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link LockLostListener} that remembers every call, to check that it came once and why. */
public final class RecordingLostListener implements LockLostListener {
  private final List<LostReason> reasons = new CopyOnWriteArrayList<>();

  @Override
  public void lockLost(LostReason reason) {
    reasons.add(reason);
  }

  /** The reasons it was called with, in order. */
  public List<LostReason> reasons() {
    return List.copyOf(reasons);
  }
}
