package dev.baton.engine;

/** Rejects keys no backend can hold, with a message naming the key and the fix. */
final class KeyChecks {
  static final int MAX_LENGTH = 256;

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
          + key.substring(0, 40) + "...' has " + key.length() + "; use a shorter name or a hash of it.");
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isISOControl(c)) {
        throw new IllegalArgumentException(String.format(
            "The lock key '%s' holds the control character U+%04X at index %d; use printable characters only.",
            printable(key), (int) c, i));
      }
    }
  }

  private static String printable(String key) {
    StringBuilder out = new StringBuilder(key.length());
    key.chars().forEach(c -> out.append(Character.isISOControl(c) ? String.format("\\u%04x", c) : String.valueOf((char) c)));
    return out.toString();
  }
}
