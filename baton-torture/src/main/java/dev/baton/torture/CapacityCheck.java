package dev.baton.torture;

import dev.baton.torture.TortureResult.Hold;
import dev.baton.torture.TortureResult.Violation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The bound of a semaphore: at no moment more than its permits' number of holds. Holds only ever add up at a grant,
 * so it counts the holds in force at each one. Where there are more than the permits, the holders that were paused
 * past their ttl or told they lost their permit explain the excess if, without them, the rest fit in the permits;
 * otherwise it is a violation. (Unlike a lock's, a semaphore's stale holder need not have the lowest token: the
 * permit it lost may have been granted after one still in force.)
 */
final class CapacityCheck {
  private final int permits;

  CapacityCheck(int permits) {
    this.permits = permits;
  }

  /** Adds every moment over the bound that stale holds do not explain to {@code violations}; returns the explained. */
  int check(List<Hold> holds, List<Violation> violations) {
    Set<Hold> explained = new HashSet<>();
    List<Hold> inForce = new ArrayList<>();
    for (Hold granted : holds) {
      inForce.removeIf(hold -> hold.endNanos() <= granted.startNanos());
      inForce.add(granted);
      if (inForce.size() <= permits) {
        continue;
      }
      List<Hold> stale = inForce.stream().filter(hold -> hold.paused() || hold.lost()).toList();
      if (inForce.size() - stale.size() <= permits) {
        explained.addAll(stale);
      } else {
        violations.add(new Violation("overlapping holds: " + inForce.size() + " permit holders at once of "
            + permits + " permits, " + stale.size() + " of them lost or paused: tokens "
            + inForce.stream().sorted(Comparator.comparingLong(Hold::token)).map(hold -> hold.token()
                + (hold.paused() || hold.lost() ? " (stale)" : "")).toList(), granted.startNanos(),
            inForce.stream().map(Hold::worker).toList()));
      }
    }
    return explained.size();
  }
}
