package dev.baton.internal;

import dev.baton.LockOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The checks of settings and options that the API, the engine and the client builders of Baton's own stores share,
 * with the same messages. Baton's plumbing, not API: {@code baton-core}'s module exports this package only to Baton's
 * modules, and it may change in any release.
 */
public final class Settings {
  /** The longest namespace a client takes: far below what any store accepts in a key. */
  public static final int MAX_PREFIX_LENGTH = 128;

  private Settings() {}

  /**
   * {@code value} as the prefix of every key a client writes, ending with exactly one {@code separator} (added if
   * missing, so that {@code /ns} with key {@code 2/k} cannot name the lock of {@code /ns2/} and {@code k}); else an
   * {@link IllegalArgumentException} naming the setting: the value must be printable, whole text of at most
   * {@link #MAX_PREFIX_LENGTH} characters.
   */
  public static String prefix(String name, String value, char separator, String example) {
    String hint = " Use printable text of at most " + MAX_PREFIX_LENGTH + " characters such as \"" + example + "\".";
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank but was '" + value + "'." + hint);
    }
    boolean wholeText = value.equals(new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
    if (!wholeText || value.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(name + " holds a control character or half of a character: '"
          + value.replaceAll("\\p{Cntrl}|\\p{Cs}", "?") + "'." + hint);
    }
    if (value.length() > MAX_PREFIX_LENGTH) {
      throw new IllegalArgumentException(name + " must be at most " + MAX_PREFIX_LENGTH + " characters but '"
          + value.substring(0, value.offsetByCodePoints(0, 20)) + "...' has " + value.length() + "." + hint);
    }
    String trimmed = value;
    while (trimmed.length() > 1 && trimmed.charAt(trimmed.length() - 1) == separator) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    return trimmed.charAt(trimmed.length() - 1) == separator ? trimmed : trimmed + separator;
  }

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
