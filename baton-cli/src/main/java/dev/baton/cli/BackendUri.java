package dev.baton.cli;

/** Backend URIs as baton shows them to others: without a password. */
final class BackendUri {

  private BackendUri() {}

  /**
   * Removes the password from the user info of {@code uri}: {@code redis://user:secret@host:6379} becomes
   * {@code redis://user@host:6379}, and {@code redis://:secret@host} or {@code redis://secret@host} (Redis
   * URIs read a lone user info as the password) become {@code redis://host}. Other URIs are returned as they are.
   */
  static String withoutPassword(String uri) {
    int start = uri.indexOf("://");
    if (start < 0) {
      return uri;
    }
    start += 3;
    int end = start;
    while (end < uri.length() && "/?#".indexOf(uri.charAt(end)) < 0) {
      end++;
    }
    int at = uri.lastIndexOf('@', end - 1);
    if (at < start) {
      return uri;
    }
    String userInfo = uri.substring(start, at);
    int colon = userInfo.indexOf(':');
    String user = colon > 0 ? userInfo.substring(0, colon) + "@" : "";
    return uri.substring(0, start) + user + uri.substring(at + 1);
  }
}
