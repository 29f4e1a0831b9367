package dev.baton.torture;

import dev.baton.torture.TortureResult.Hold;
import dev.baton.torture.TortureResult.Violation;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Mutual exclusion of a lock, a read-write lock's writers and a leadership's terms: finds every two holds of
 * different workers that overlap where at least one held alone (two readers may overlap), and sorts each overlap
 * into explained or a violation.
 *
 * <p>Of two overlapping holds, the stale one has the lower token (the store granted it first, whenever its holder
 * got to record it). The overlap is explained when that holder was paused past its ttl, or told it lost the hold,
 * and the register served none of its accesses after the other holder's first read (its stale read or write was
 * fenced off, or came first). A leader's term ends when it is told of the revocation, so a term that overlaps a
 * newer one was revoked after the next leader was elected: only a pause explains it.
 */
final class ExclusionCheck {
  private final boolean toldExplains;
  private final String alone;

  /** @param primitive a lock, a read-write lock, a leadership, or a multi-lock (checked one key at a time) */
  ExclusionCheck(Primitive primitive) {
    this.toldExplains = primitive != Primitive.LEADERSHIP; // a term ends when told; a hold goes on to its release
    this.alone = switch (primitive) {
      case READ_WRITE -> "writer";
      case LEADERSHIP -> "leader";
      case LOCK, SEMAPHORE, MULTI_LOCK, LINGER -> "holder";
    };
  }

  /** Adds every unexplained overlap of {@code holds} (sorted by start) to {@code violations}; returns the explained. */
  int check(List<Hold> holds, List<Violation> violations) {
    Set<Hold> explained = new HashSet<>();
    for (int i = 0; i < holds.size(); i++) {
      Hold earlier = holds.get(i);
      for (int j = i + 1; j < holds.size() && holds.get(j).startNanos() < earlier.endNanos(); j++) {
        Hold later = holds.get(j);
        if (later.worker().equals(earlier.worker()) || earlier.shared() && later.shared()) {
          continue;
        }
        Hold stale = earlier.token() < later.token() ? earlier : later;
        Hold current = stale == earlier ? later : earlier;
        boolean excused = stale.paused() || toldExplains && stale.lost();
        boolean harmless = stale.lastAccessNanos() < current.readNanos();
        if (excused && harmless) {
          explained.add(stale);
        } else {
          violations.add(new Violation("overlapping holds: " + side(stale) + " token " + stale.token() + " ("
              + (excused ? "stale access served after the newer holder read" : why(stale, current)) + ") and "
              + side(current) + " token " + current.token(), later.startNanos(),
              List.of(stale.worker(), current.worker())));
        }
      }
    }
    return explained.size();
  }

  private String why(Hold stale, Hold current) {
    if (!toldExplains && stale.lost()) {
      return "revoked " + Duration.ofNanos(stale.endNanos() - current.startNanos()).toMillis()
          + " ms after the next leader was elected, not paused";
    }
    return "never told it lost " + (toldExplains ? "the lock" : "its term") + ", not paused";
  }

  private String side(Hold hold) {
    return hold.shared() ? "reader" : alone;
  }
}
