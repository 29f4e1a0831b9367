package dev.baton.spi;

import dev.baton.LockOptions;
import java.time.Duration;

/** The checks every backend's client builder makes of its settings, with the same messages. */
public final class Settings {
  private Settings() {}

  /** {@code value} if it is a positive duration, else an {@link IllegalArgumentException} naming the setting. */
  public static Duration positive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be a positive duration but was " + value + ".");
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
