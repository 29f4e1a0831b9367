package dev.baton.jdbc;

import java.util.Properties;

/**
 * A server address split by {@link AddressFormat#parse}: the JDBC URL the driver takes and the user and password,
 * which the driver gets apart from the URL so that no message quotes them.
 *
 * @param jdbcUrl e.g. {@code jdbc:postgresql://host:port/db?...}, without user info
 * @param user the user from the address, or null
 * @param password the password from the address, or null
 */
public record JdbcAddress(String jdbcUrl, String user, String password) {

  /** How messages name the server: the JDBC URL without its parameters, which may hold a password. */
  public String display() {
    int query = jdbcUrl.indexOf('?');
    return query < 0 ? jdbcUrl : jdbcUrl.substring(0, query);
  }

  /**
   * The driver's {@code user} and {@code password} properties: {@code user} and {@code password} if a user is given
   * (credentials set apart from the address), else the address's own; none that is null.
   */
  public Properties login(String user, String password) {
    Properties properties = new Properties();
    String login = user != null ? user : this.user;
    String secret = user != null ? password : this.password;
    if (login != null) {
      properties.setProperty("user", login);
    }
    if (secret != null) {
      properties.setProperty("password", secret);
    }
    return properties;
  }
}
