package dev.baton.spi;

/**
 * Hides secrets in what Baton shows: every message, log line or status that names a store's address passes it
 * through {@link #uri(String)} first, so that a password written into a URI never shows there.
 */
public final class Redaction {
  /** What a hidden secret shows as. */
  public static final String MASK = "***";

  private Redaction() {}

  /**
   * {@code address} (a URI such as {@code redis://user:password@host:6379/0}, a list of them, or a connect string)
   * with the secret of its user info replaced by {@value #MASK}: {@code redis://user:***@host:6379/0},
   * {@code redis://:***@host}; a user info without a colon, which Redis reads as a password, is hidden whole:
   * {@code redis://***@host}. Everything up to the last {@code @} counts as user info, so that a password holding
   * {@code /}, {@code ,} or {@code @} is hidden whole even when the address is malformed; an {@code @} in a path
   * (a ZooKeeper chroot) hides more than it must, never less. An address without {@code @} is returned as it is;
   * null shows as {@code null}.
   */
  public static String uri(String address) {
    if (address == null) {
      return "null";
    }
    int at = address.lastIndexOf('@');
    if (at < 0) {
      return address;
    }
    int scheme = address.indexOf("://");
    int start = scheme >= 0 && scheme < at ? scheme + 3 : 0;
    String userInfo = address.substring(start, at);
    int colon = userInfo.indexOf(':');
    String user = colon >= 0 ? userInfo.substring(0, colon + 1) : "";
    return address.substring(0, start) + user + MASK + address.substring(at);
  }
}
