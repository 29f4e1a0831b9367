package dev.baton.torture;

import java.time.Duration;
import java.util.Locale;

/** What a torture's workers contend for, each with the invariant the checker holds it to. */
public enum Primitive {
  /** {@code client.lock(key)}: one holder at a time. */
  LOCK("lock"),
  /** {@code client.readWriteLock(key)}: readers together, or one writer; a writer's token tops every earlier one. */
  READ_WRITE("rw"),
  /** {@code client.semaphore(key, permits)}: at most the permits' number of holders at once. */
  SEMAPHORE("semaphore"),
  /** {@code client.leadership(key)}: one leader at a time, each term's token larger, a revoked leader stops first. */
  LEADERSHIP("leader"),
  /**
   * {@code client.multiLock(keys)} over random overlapping sets of {@value #MULTI_KEYS} keys under the torture's key:
   * one holder at a time per key, and the run goes on (no deadlock stalls it).
   */
  MULTI_LOCK("multi"),
  /**
   * {@code client.lock(key)} with a {@link #LINGER_FOR linger} far longer than any wait: one holder at a time, and a
   * worker waiting in another process is served though each holder would take the lock back at once.
   */
  LINGER("linger");

  /**
   * How long a lingering-lock torture's holders linger: longer than a worker's wait, so that a waiter served only
   * when the linger ended shows as a worker without progress.
   */
  public static final Duration LINGER_FOR = Duration.ofMinutes(1);

  /** How many keys a multi-lock torture's workers take their sets from: few, so that the sets overlap. */
  public static final int MULTI_KEYS = 5;

  private final String option;

  Primitive(String option) {
    this.option = option;
  }

  /**
   * The name on the command line: {@code lock}, {@code rw}, {@code semaphore}, {@code leader}, {@code multi} or
   * {@code linger}.
   */
  public String option() {
    return option;
  }

  /** The primitive named {@code option} on the command line. */
  public static Primitive fromOption(String option) {
    for (Primitive primitive : values()) {
      if (primitive.option.equals(option.trim().toLowerCase(Locale.ROOT))) {
        return primitive;
      }
    }
    throw new IllegalArgumentException("Unknown primitive '" + option
        + "'; use lock, rw, semaphore, leader, multi or linger.");
  }
}
