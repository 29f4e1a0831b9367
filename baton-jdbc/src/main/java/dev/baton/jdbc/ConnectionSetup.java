package dev.baton.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What a store sets on a connection before it uses it: on a new connection of its own pool (MariaDB's
 * {@code idle_transaction_timeout}), or what puts back a connection after a transaction ({@link TransactionSetup}).
 */
@FunctionalInterface
public interface ConnectionSetup {
  /** Sets nothing. */
  ConnectionSetup NONE = connection -> { };

  /** Sets up {@code connection}; a failure fails the call that needed it. */
  void apply(Connection connection) throws SQLException;
}
