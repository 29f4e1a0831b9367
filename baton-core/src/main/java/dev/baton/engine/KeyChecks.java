package dev.baton.engine;

/** Rejects keys no backend can hold, with a message naming the key and the fix. */
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
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isISOControl(c)) {
        throw new IllegalArgumentException(String.format(
            "The lock key '%s' holds the control character U+%04X at index %d; use printable characters only.",
            printable(key), (int) c, i));
      }
      if (isUnpairedSurrogate(key, i)) {
        // An unpaired surrogate is no text: encoded for the store it becomes '?', so two different keys
        // would name one lock there.
        throw new IllegalArgumentException(String.format(
            "The lock key '%s' holds the unpaired surrogate U+%04X at index %d, which no store can tell from '?';"
                + " build the key from whole characters (a cut in the middle of an emoji leaves one).",
            printable(key), (int) c, i));
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
