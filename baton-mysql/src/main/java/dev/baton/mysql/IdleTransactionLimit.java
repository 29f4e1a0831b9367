package dev.baton.mysql;

import dev.baton.jdbc.ConnectionSetup;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * What each new connection of the client's own pool sets first, on MariaDB: {@code idle_transaction_timeout}
 * ({@code idle-transaction.sql}). A client that stops in the middle of an acquire's transaction (a frozen process, a
 * network cut the server does not see) holds the counter row's lock, which every other acquire waits for, and the
 * server ends its session, and so its transaction, once it has been idle that long. MySQL has no such setting: there
 * the bound is the operating system's TCP timeouts, or the server's {@code wait_timeout}.
 */
final class IdleTransactionLimit implements ConnectionSetup {
  private final String statement;
  private final long seconds;

  /** Sets {@code sql}'s {@code idle-transaction.sql} to {@code seconds} on MariaDB. */
  IdleTransactionLimit(Sql sql, long seconds) {
    this.statement = sql.idleTransaction;
    this.seconds = seconds;
  }

  @Override
  public void apply(Connection connection) throws SQLException {
    if (connection.getMetaData().getDatabaseProductName().contains("MariaDB")) {
      try (PreparedStatement set = connection.prepareStatement(statement)) {
        set.setLong(1, seconds);
        set.execute();
      }
    }
  }
}
