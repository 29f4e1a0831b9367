package dev.baton.postgres;

import dev.baton.internal.Redaction;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A server address as users write it, {@code postgresql://user:password@host:5432/db?param=value} or
 * {@code jdbc:postgresql://...} (also {@code postgres://}), split into the JDBC URL the driver takes (query parameters
 * kept) and the user and password, which the driver gets apart from the URL so that no message quotes them.
 *
 * @param jdbcUrl {@code jdbc:postgresql://host:port/db?...}, without user info
 * @param user the user from the address, or null
 * @param password the password from the address, or null
 */
record PostgresAddress(String jdbcUrl, String user, String password) {

  /**
   * Reads {@code address}.
   *
   * @throws IllegalArgumentException naming the address, its password hidden, if it is not a PostgreSQL address
   */
  static PostgresAddress parse(String address) {
    if (address == null || address.isBlank()) {
      throw new IllegalArgumentException("The PostgreSQL address must not be blank; use e.g."
          + " postgresql://user:password@127.0.0.1:5432/db.");
    }
    String text = address.strip();
    String lower = text.toLowerCase(Locale.ROOT);
    String rest;
    if (lower.startsWith("jdbc:postgresql://")) {
      rest = text.substring("jdbc:postgresql://".length());
    } else if (lower.startsWith("postgresql://")) {
      rest = text.substring("postgresql://".length());
    } else if (lower.startsWith("postgres://")) {
      rest = text.substring("postgres://".length());
    } else {
      throw malformed(address);
    }
    int slash = rest.indexOf('/');
    int at = rest.lastIndexOf('@', slash < 0 ? rest.length() - 1 : slash);
    String userInfo = at < 0 ? null : rest.substring(0, at);
    String hostAndPath = rest.substring(at + 1);
    try {
      URI check = URI.create("postgresql://" + hostAndPath);
      if (check.getHost() == null) {
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
    return new PostgresAddress("jdbc:postgresql://" + hostAndPath, user, password);
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
    return new IllegalArgumentException("The PostgreSQL address '" + Redaction.uri(address) + "' is malformed; use"
        + " postgresql://user:password@host:5432/db or jdbc:postgresql://host:5432/db.");
  }
}
