package dev.baton.engine;

/** Rejects keys no backend can hold, and prefixes no key can start with, with a message naming the value and the fix. */
final class KeyChecks {
  static final int MAX_LENGTH = 256;
  private static final int SHOWN_PREFIX = 40;

  private KeyChecks() {}

  static void check(String key) {
    if (key == null) {
      throw new IllegalArgumentException("A lock key must not be null; name the resource you lock, e.g. \"orders/42\".");
    }
    if (key.isBlank()) {
      throw new IllegalArgumentException(
          "A lock key must not be blank but was '" + key + "'; name the resource you lock, e.g. \"orders/42\".");
    }
    if (key.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("A lock key must be at most " + MAX_LENGTH + " characters but '"
          + printable(key.substring(0, key.offsetByCodePoints(0, SHOWN_PREFIX))) + "...' has " + key.length()
          + "; use a shorter name or a hash of it.");
    }
    checkCharacters(key, "lock key");
  }

  /**
   * Checks the prefix of the keys to list as keys are checked, except that it may be empty (every key): a key
   * that starts with a prefix the checks refuse could not exist.
   */
  static void checkPrefix(String prefix) {
    if (prefix == null) {
      throw new IllegalArgumentException("The key prefix to list must not be null; use \"\" to list every lock, or"
          + " a prefix such as \"orders/\".");
    }
    if (prefix.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("The key prefix to list must be at most " + MAX_LENGTH
          + " characters, as keys are, but '" + printable(prefix.substring(0, prefix.offsetByCodePoints(0, SHOWN_PREFIX)))
          + "...' has " + prefix.length() + "; no key starts with it.");
    }
    checkCharacters(prefix, "key prefix");
  }

  /** Refuses control characters and unpaired surrogates; {@code what} names the text in the message. */
  private static void checkCharacters(String text, String what) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c)) {
        throw new IllegalArgumentException(String.format(
            "The %s '%s' holds the control character U+%04X at index %d; use printable characters only.",
            what, printable(text), (int) c, i));
      }
      if (isUnpairedSurrogate(text, i)) {
        // An unpaired surrogate is no text: encoded for the store it becomes '?', so two different keys
        // would name one lock there.
        throw new IllegalArgumentException(String.format(
            "The %s '%s' holds the unpaired surrogate U+%04X at index %d, which no store can tell from '?';"
                + " build the key from whole characters (a cut in the middle of an emoji leaves one).",
            what, printable(text), (int) c, i));
      }
    }
  }

  private static boolean isUnpairedSurrogate(String key, int i) {
    char c = key.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 == key.length() || !Character.isLowSurrogate(key.charAt(i + 1));
    }
    return Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(key.charAt(i - 1)));
  }

  /** The key with control characters and unpaired surrogates escaped as Java escapes (backslash, u, four hex digits). */
  private static String printable(String key) {
    StringBuilder out = new StringBuilder(key.length());
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isISOControl(c) || isUnpairedSurrogate(key, i)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
