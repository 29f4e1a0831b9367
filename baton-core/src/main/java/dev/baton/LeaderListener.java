package dev.baton;

import java.util.Optional;

/**
 * Told who leads a leadership name, by {@link LockClient#watchLeadership}: once when the watch starts, then at
 * each change. Runs on the client's event thread, in order; a listener that blocks holds up the client's other
 * callbacks.
 */
@FunctionalInterface
public interface LeaderListener {

  /** The name's leader now: a new term, or empty when nobody leads. */
  void leaderChanged(Optional<Leader> leader);
}
