package dev.baton.spi;

import dev.baton.LockOptions;
import java.time.Duration;

/** The checks of settings and options that the API, the engine and every backend's client builder share, with the same messages. */
public final class Settings {
  private Settings() {}

  /** {@code value} if it is a positive duration, else an {@link IllegalArgumentException} naming the setting. */
  public static Duration positive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be a positive duration but was " + value + ".");
    }
    return value;
  }

  /**
   * {@code value} if it lies between {@code min} and {@link LockOptions#MAX_DURATION}, else an
   * {@link IllegalArgumentException} naming the setting and the value and ending with {@code hint}, what to
   * pass instead.
   */
  public static Duration inRange(String name, Duration value, Duration min, String hint) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must not be null. " + hint);
    }
    if (value.compareTo(min) < 0) {
      throw new IllegalArgumentException(name + " must be at least " + min.toMillis() + " ms but was " + value + ". " + hint);
    }
    if (value.compareTo(LockOptions.MAX_DURATION) > 0) {
      throw new IllegalArgumentException(name + " must be at most 365 days but was " + value + ". " + hint);
    }
    return value;
  }

  /** {@code options} if not null, else an {@link IllegalArgumentException} saying what to pass. */
  public static LockOptions defaultOptions(LockOptions options) {
    if (options == null) {
      throw new IllegalArgumentException("The default options must not be null; use LockOptions.defaults().");
    }
    return options;
  }
}
