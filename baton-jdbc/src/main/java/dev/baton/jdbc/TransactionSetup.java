package dev.baton.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What a store sets on a connection for one transaction (MySQL's isolation level), and what puts the connection back
 * once the transaction ended: a connection of the application's pool goes back to it with the settings it came with.
 */
@FunctionalInterface
public interface TransactionSetup {
  /** Sets nothing, and so puts nothing back. */
  TransactionSetup NONE = connection -> ConnectionSetup.NONE;

  /**
   * Sets up {@code connection} for a transaction; a failure fails the call that needed it.
   *
   * @return what puts back what was set, run once the transaction ended, committed or not
   */
  ConnectionSetup apply(Connection connection) throws SQLException;
}
