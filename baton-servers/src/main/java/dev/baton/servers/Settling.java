package dev.baton.servers;

import dev.baton.embedded.internal.Poll;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/** Waiting for a set-up of servers to reach a state they report, saying what was still missing if it never did. */
final class Settling {
  private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

  private Settling() {}

  /**
   * Polls {@code missing} until it says nothing is missing (null); a server that does not answer is missing too.
   *
   * @throws IllegalStateException after {@code timeout}, quoting what was missing last
   */
  static void awaitNothingMissing(String what, Duration timeout, Supplier<String> missing) {
    AtomicReference<String> lastMissing = new AtomicReference<>();
    boolean settled = Poll.until(timeout, POLL_INTERVAL, () -> {
      try {
        lastMissing.set(missing.get());
      } catch (RuntimeException e) {
        lastMissing.set(String.valueOf(e));
      }
      return lastMissing.get() == null;
    }, Boolean::booleanValue).isPresent();
    if (!settled) {
      throw new IllegalStateException("Waited " + timeout.toSeconds() + " s in vain for " + what + ": "
          + lastMissing.get());
    }
  }
}
