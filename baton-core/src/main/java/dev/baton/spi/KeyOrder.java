package dev.baton.spi;

import java.util.Comparator;

/**
 * The order in which {@link LockBackend#list} returns locks: keys compared by their Unicode code points, which is
 * the order of their UTF-8 bytes at a store (etcd sorts its keys so). {@link String#compareTo} differs from it for
 * characters beyond U+FFFF against those from U+E000 to U+FFFF.
 *
 * <p>For store authors: a store whose own order differs (ZooKeeper's children come unordered, Redis' scan in no
 * order) sorts its keys with {@link #BY_CODE_POINT} before it returns them.
 */
public final class KeyOrder {
  /** Compares keys by code point. */
  public static final Comparator<String> BY_CODE_POINT = KeyOrder::compare;

  private KeyOrder() {}

  private static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
