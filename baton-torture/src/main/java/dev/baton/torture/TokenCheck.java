package dev.baton.torture;

import dev.baton.torture.TortureResult.Hold;
import dev.baton.torture.TortureResult.Violation;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether fencing tokens grew, from what the histories prove about the order of grants at the store:
 *
 * <ul>
 *   <li>A hold granted (its grant recorded) before another's holder asked was granted first, so has the lower token:
 *       tokens grow with every grant, a reader's and a permit's included.
 *   <li>A hold held alone (a lock, a writer, a leader) whose holder was not paused was granted after every hold
 *       whose grant was recorded before its own: none could be granted while it held, and its holder recorded its
 *       grant long before the store could let it expire. So its token is larger than theirs, readers' included, and
 *       every term's is larger than the last one's.
 *   <li>No two holds have one token, and the register accepted tokens in order, one holder's at a time.
 * </ul>
 */
final class TokenCheck {
  private final FencedRegister register;
  private final long endNanos;

  TokenCheck(FencedRegister register, long endNanos) {
    this.register = register;
    this.endNanos = endNanos;
  }

  /** Adds what it finds to {@code violations}; returns whether tokens grew. */
  boolean check(List<Hold> holds, List<Violation> violations) {
    int before = violations.size();
    grantedBeforeAsked(holds, violations);
    grantedBeforeAnExclusiveHold(holds, violations);
    oneHoldPerToken(holds, violations);
    acceptedInOrder(violations);
    return violations.size() == before;
  }

  private static void grantedBeforeAsked(List<Hold> holds, List<Violation> violations) {
    List<Hold> byStart = holds.stream().sorted(Comparator.comparingLong(Hold::startNanos)).toList();
    List<Hold> byAsk = holds.stream().sorted(Comparator.comparingLong(Hold::askNanos)).toList();
    Hold highest = null;
    int granted = 0;
    for (Hold asking : byAsk) {
      for (; granted < byStart.size() && byStart.get(granted).startNanos() < asking.askNanos(); granted++) {
        highest = higher(highest, byStart.get(granted));
      }
      if (highest != null && highest.token() >= asking.token()) {
        violations.add(new Violation("token " + asking.token() + " granted to a holder that asked after token "
            + highest.token() + " had been granted", asking.startNanos(), List.of(highest.worker(), asking.worker())));
      }
    }
  }

  private static void grantedBeforeAnExclusiveHold(List<Hold> holds, List<Violation> violations) {
    Hold highest = null;
    for (Hold hold : holds.stream().sorted(Comparator.comparingLong(Hold::startNanos)).toList()) {
      if (!hold.shared() && !hold.paused() && highest != null && highest.token() >= hold.token()) {
        violations.add(new Violation("token " + hold.token() + " of a hold alone is not larger than token "
            + highest.token() + ", granted before it", hold.startNanos(), List.of(highest.worker(), hold.worker())));
      }
      highest = higher(highest, hold);
    }
  }

  private static void oneHoldPerToken(List<Hold> holds, List<Violation> violations) {
    Map<Long, Hold> byToken = new HashMap<>();
    for (Hold hold : holds) {
      Hold same = byToken.putIfAbsent(hold.token(), hold);
      if (same != null) {
        violations.add(new Violation("two holds had token " + hold.token(), hold.startNanos(),
            List.of(same.worker(), hold.worker())));
      }
    }
  }

  private void acceptedInOrder(List<Violation> violations) {
    List<FencedRegister.AcceptedWrite> accepted = register.accepted();
    for (int i = 1; i < accepted.size(); i++) {
      FencedRegister.AcceptedWrite previous = accepted.get(i - 1);
      FencedRegister.AcceptedWrite write = accepted.get(i);
      // A leader writes many times in one term, with one token; two holders never share one.
      if (write.token() < previous.token() || write.token() == previous.token()
          && !write.worker().equals(previous.worker())) {
        violations.add(new Violation("the register accepted token " + write.token() + " after " + previous.token(),
            endNanos, List.of(previous.worker(), write.worker())));
      }
    }
  }

  private static Hold higher(Hold highest, Hold hold) {
    return highest == null || hold.token() > highest.token() ? hold : highest;
  }
}
