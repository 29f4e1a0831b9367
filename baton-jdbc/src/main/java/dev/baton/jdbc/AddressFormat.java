package dev.baton.jdbc;

import dev.baton.internal.Redaction;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * How users write a SQL store's address, e.g. {@code postgresql://user:password@host:5432/db?param=value}: the
 * schemes it takes, the JDBC scheme its driver takes, whether the database is required, and what its messages say.
 *
 * @param store the store as messages name it, e.g. {@code PostgreSQL}
 * @param schemes the schemes taken, each with its {@code ://}, matched without regard to case
 * @param jdbcScheme the scheme of the driver's URL, e.g. {@code jdbc:postgresql://}
 * @param databaseRequired whether an address without a database is malformed
 * @param example an address to suggest for a blank one
 * @param usage what a malformed address's message says to use instead
 */
public record AddressFormat(String store, List<String> schemes, String jdbcScheme, boolean databaseRequired,
    String example, String usage) {

  /**
   * Reads {@code address}: the JDBC URL the driver takes (query parameters kept, user info left out) and the user
   * and password, which the driver gets apart from the URL so that no message quotes them.
   *
   * @throws IllegalArgumentException naming the address, its password hidden, if it is not of this format
   */
  public JdbcAddress parse(String address) {
    if (address == null || address.isBlank()) {
      throw new IllegalArgumentException("The " + store + " address must not be blank; use e.g. " + example + ".");
    }
    String text = address.strip();
    String lower = text.toLowerCase(Locale.ROOT);
    String scheme = schemes.stream().filter(lower::startsWith).findFirst().orElseThrow(() -> malformed(address));
    String rest = text.substring(scheme.length());
    int slash = rest.indexOf('/');
    int at = rest.lastIndexOf('@', slash < 0 ? rest.length() - 1 : slash);
    String userInfo = at < 0 ? null : rest.substring(0, at);
    String hostAndPath = rest.substring(at + 1);
    try {
      URI check = URI.create("db://" + hostAndPath);
      String path = check.getPath();
      if (check.getHost() == null || databaseRequired && (path == null || path.length() < 2)) {
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
    return new JdbcAddress(jdbcScheme + hostAndPath, user, password);
  }

  private static String decode(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private IllegalArgumentException malformed(String address) {
    return new IllegalArgumentException("The " + store + " address '" + Redaction.uri(address) + "' is malformed; use "
        + usage + ".");
  }
}
