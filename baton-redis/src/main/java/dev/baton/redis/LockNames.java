package dev.baton.redis;

/** How a lock layout names its lock hashes, so that {@link LockScan} can find those under a key prefix. */
interface LockNames {
  /** The {@code SCAN MATCH} pattern of the lock hashes whose key starts with {@code keyPrefix}. */
  String lockPattern(String keyPrefix);

  /** The key of the lock hash {@code lockHash}, which matched {@link #lockPattern}. */
  String keyOfLock(String lockHash);

  /** The Redis glob pattern of the names that start with {@code text}: {@code text} taken literally, then anything. */
  static String startingWith(String text) {
    return literally(text) + "*";
  }

  /** The Redis glob pattern of {@code text} alone, its special characters escaped. */
  static String literally(String text) {
    StringBuilder pattern = new StringBuilder(text.length() + 1);
    for (char c : text.toCharArray()) {
      if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
        pattern.append('\\');
      }
      pattern.append(c);
    }
    return pattern.toString();
  }
}
