package dev.baton.mysql;

import dev.baton.internal.Redaction;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A server address as users write it, {@code mysql://user:password@host:3306/db?param=value} or {@code mariadb://...}
 * (also {@code jdbc:mysql://} and {@code jdbc:mariadb://}), split into the JDBC URL MariaDB Connector/J takes (query
 * parameters kept) and the user and password, which the driver gets apart from the URL so that no message quotes
 * them.
 *
 * @param jdbcUrl {@code jdbc:mariadb://host:port/db?...}, without user info
 * @param user the user from the address, or null
 * @param password the password from the address, or null
 */
record MySqlAddress(String jdbcUrl, String user, String password) {
  private static final List<String> SCHEMES = List.of("jdbc:mysql://", "jdbc:mariadb://", "mysql://", "mariadb://");

  /**
   * Reads {@code address}.
   *
   * @throws IllegalArgumentException naming the address, its password hidden, if it is not a MySQL address with a
   *     database
   */
  static MySqlAddress parse(String address) {
    if (address == null || address.isBlank()) {
      throw new IllegalArgumentException("The MySQL address must not be blank; use e.g."
          + " mysql://user:password@127.0.0.1:3306/db.");
    }
    String text = address.strip();
    String lower = text.toLowerCase(Locale.ROOT);
    String scheme = SCHEMES.stream().filter(lower::startsWith).findFirst().orElseThrow(() -> malformed(address));
    String rest = text.substring(scheme.length());
    int slash = rest.indexOf('/');
    int at = rest.lastIndexOf('@', slash < 0 ? rest.length() - 1 : slash);
    String userInfo = at < 0 ? null : rest.substring(0, at);
    String hostAndPath = rest.substring(at + 1);
    try {
      URI check = URI.create("mysql://" + hostAndPath);
      String path = check.getPath();
      if (check.getHost() == null || path == null || path.length() < 2) {
        throw malformed(address);
      }
    } catch (IllegalArgumentException e) {
      throw malformed(address); // not the cause: its message would quote the address
    }
    String user = null;
    String password = null;
    if (userInfo != null) {
      int colon = userInfo.indexOf(':');
      user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
      password = colon < 0 ? null : decode(userInfo.substring(colon + 1));
    }
    return new MySqlAddress("jdbc:mariadb://" + hostAndPath, user, password);
  }

  /** How messages name the server: the JDBC URL without its parameters, which may hold a password. */
  String display() {
    int query = jdbcUrl.indexOf('?');
    return query < 0 ? jdbcUrl : jdbcUrl.substring(0, query);
  }

  private static String decode(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private static IllegalArgumentException malformed(String address) {
    return new IllegalArgumentException("The MySQL address '" + Redaction.uri(address) + "' is malformed; use"
        + " mysql://user:password@host:3306/db or mariadb://user:password@host:3306/db (the database is required).");
  }
}
