package dev.baton.mysql;

import dev.baton.jdbc.AddressFormat;
import dev.baton.jdbc.JdbcAddress;
import java.util.List;

/**
 * A MySQL or MariaDB address as users write it, {@code mysql://user:password@host:3306/db?param=value} or
 * {@code mariadb://...} (also {@code jdbc:mysql://} and {@code jdbc:mariadb://}), split into the JDBC URL MariaDB
 * Connector/J takes (query parameters kept) and the user and password ({@link JdbcAddress}).
 */
final class MySqlAddress {
  /** The addresses a MySQL client takes: the database is required. */
  static final AddressFormat FORMAT = new AddressFormat("MySQL",
      List.of("jdbc:mysql://", "jdbc:mariadb://", "mysql://", "mariadb://"), "jdbc:mariadb://", true,
      "mysql://user:password@127.0.0.1:3306/db",
      "mysql://user:password@host:3306/db or mariadb://user:password@host:3306/db (the database is required)");

  private MySqlAddress() {}

  /**
   * Reads {@code address}.
   *
   * @throws IllegalArgumentException naming the address, its password hidden, if it is not a MySQL address with a
   *     database
   */
  static JdbcAddress parse(String address) {
    return FORMAT.parse(address);
  }
}
