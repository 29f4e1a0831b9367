package dev.baton.postgres;

import dev.baton.jdbc.AddressFormat;
import dev.baton.jdbc.JdbcAddress;
import java.util.List;

/**
 * A PostgreSQL address as users write it, {@code postgresql://user:password@host:5432/db?param=value} or
 * {@code jdbc:postgresql://...} (also {@code postgres://}), split into the JDBC URL the driver takes (query parameters
 * kept) and the user and password ({@link JdbcAddress}).
 */
final class PostgresAddress {
  /** The addresses a PostgreSQL client takes. */
  static final AddressFormat FORMAT = new AddressFormat("PostgreSQL",
      List.of("jdbc:postgresql://", "postgresql://", "postgres://"), "jdbc:postgresql://", false,
      "postgresql://user:password@127.0.0.1:5432/db",
      "postgresql://user:password@host:5432/db or jdbc:postgresql://host:5432/db");

  private PostgresAddress() {}

  /**
   * Reads {@code address}.
   *
   * @throws IllegalArgumentException naming the address, its password hidden, if it is not a PostgreSQL address
   */
  static JdbcAddress parse(String address) {
    return FORMAT.parse(address);
  }
}
