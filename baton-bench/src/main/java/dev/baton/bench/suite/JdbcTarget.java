package dev.baton.bench.suite;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The run's PostgreSQL or MariaDB server as the JDBC peers reach it: {@code postgresql://user:password@host:port/db}
 * or {@code mariadb://user:password@host:port/db} read into a JDBC URL and a login, for a HikariCP pool (as Spring
 * Boot makes one) or a plain connection.
 *
 * @param jdbcUrl {@code jdbc:postgresql://host:port/db} or {@code jdbc:mariadb://host:port/db}
 * @param user the user
 * @param password the user's password
 */
record JdbcTarget(String jdbcUrl, String user, String password) {

  /** Reads {@code uri}, a {@code postgresql://} or {@code mariadb://} URI with a user and a password. */
  static JdbcTarget of(String uri) {
    URI parsed = URI.create(uri);
    String scheme = switch (parsed.getScheme()) {
      case "postgresql" -> "postgresql";
      case "mariadb", "mysql" -> "mariadb";
      default -> throw new IllegalArgumentException("Not a PostgreSQL or MariaDB URI: " + parsed.getScheme()
          + "://...; give postgresql://USER:PASSWORD@HOST:PORT/DB or mariadb://USER:PASSWORD@HOST:PORT/DB.");
    };
    String[] login = parsed.getRawUserInfo().split(":", 2);
    return new JdbcTarget("jdbc:" + scheme + "://" + parsed.getHost() + ":" + parsed.getPort() + parsed.getPath(),
        decode(login[0]), decode(login[1]));
  }

  /** A HikariCP pool with its defaults (ten connections at most), named {@code name}. */
  HikariDataSource pool(String name) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setUsername(user);
    config.setPassword(password);
    config.setPoolName(name);
    return new HikariDataSource(config);
  }

  /** A connection of its own, in auto-commit mode. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl, user, password);
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }
}
