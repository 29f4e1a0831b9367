package dev.baton.torture;

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
  LEADERSHIP("leader");

  private final String option;

  Primitive(String option) {
    this.option = option;
  }

  /** The name on the command line: {@code lock}, {@code rw}, {@code semaphore} or {@code leader}. */
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
    throw new IllegalArgumentException("Unknown primitive '" + option + "'; use lock, rw, semaphore or leader.");
  }
}
