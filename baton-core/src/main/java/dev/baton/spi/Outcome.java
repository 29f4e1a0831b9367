package dev.baton.spi;

import java.time.Duration;
import java.util.Objects;

/** What one {@link Attempt#tryAcquire} achieved: a grant, or how long to wait before the next try. */
public final class Outcome {
  private static final Outcome RETRY_NOW = new Outcome(null, Duration.ZERO);

  private final Grant grant;
  private final Duration retryAfter;

  private Outcome(Grant grant, Duration retryAfter) {
    this.grant = grant;
    this.retryAfter = retryAfter;
  }

  /** The lock is ours. */
  public static Outcome granted(Grant grant) {
    return new Outcome(Objects.requireNonNull(grant, "grant"), Duration.ZERO);
  }

  /** Not ours yet, and worth trying again at once (the attempt has just set up its wake-up). */
  public static Outcome retryNow() {
    return RETRY_NOW;
  }

  /**
   * Not ours yet: try again when the wake-up is signalled, or after {@code maxWait} at the latest, the
   * bound that keeps a lost wake-up from turning into a hang.
   */
  public static Outcome waitAtMost(Duration maxWait) {
    return new Outcome(null, Objects.requireNonNull(maxWait, "maxWait"));
  }

  public boolean isGranted() {
    return grant != null;
  }

  /** The grant; only when {@link #isGranted()}. */
  public Grant grant() {
    if (grant == null) {
      throw new IllegalStateException("not granted");
    }
    return grant;
  }

  /** How long to wait for a wake-up before trying again; zero to try again at once. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
