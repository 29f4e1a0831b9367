package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockClient;
import dev.baton.testkit.PostgresServerExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The statements of an acquire's tries read the lock table through its primary key even where the statistics
 * invite a sequential scan: right after a vacuum has emptied the table, as autovacuum leaves it every minute under a
 * steady load. A plan that read the whole table would read every row deleted since the last vacuum, on every call.
 */
class PostgresPlanTest {
  private static final Sql SQL = new Sql(PostgresLockClient.DEFAULT_TABLE);

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @BeforeAll
  static void emptyTheTable() {
    PostgresLockClient.connect(postgres.uri()).close(); // creates the table
    TestDatabase.update(postgres.server(), "VACUUM " + SQL.table);
  }

  @Test
  void theStatementsOfATryReadAnEmptiedTableThroughItsIndex() throws Exception {
    for (String statement : List.of(SQL.claimInsert, SQL.queue, SQL.contend, SQL.insert, SQL.refresh)) {
      assertThat(planAfter(SQL.queueLock, statement)).as(statement).doesNotContain("Seq Scan", "Bitmap");
    }
  }

  /** What a plain plan would be, to show that the table invites a sequential scan. */
  @Test
  void withoutTheSettingsTheEmptiedTableWouldBeReadWhole() throws Exception {
    assertThat(planAfter("SELECT 1", SQL.claimInsert)).contains("Seq Scan");
  }

  /** The plan of {@code statement} in a transaction that ran {@code settings} first, as the client sends them. */
  private static String planAfter(String settings, String statement) throws SQLException {
    try (Connection connection = TestDatabase.connect(postgres.server())) {
      connection.setAutoCommit(false);
      try (PreparedStatement first = connection.prepareStatement(settings)) {
        bindAny(first);
        first.execute();
      }
      List<String> lines = new ArrayList<>();
      try (PreparedStatement explain = connection.prepareStatement("EXPLAIN " + statement)) {
        bindAny(explain);
        try (ResultSet plan = explain.executeQuery()) {
          while (plan.next()) {
            lines.add(plan.getString(1));
          }
        }
      }
      connection.rollback();
      return String.join("\n", lines);
    }
  }

  /** Binds 1 to each parameter, untyped: the server reads it as the text, number or key it expects there. */
  private static void bindAny(PreparedStatement statement) throws SQLException {
    for (int i = 1; i <= statement.getParameterMetaData().getParameterCount(); i++) {
      statement.setObject(i, "1", Types.OTHER);
    }
  }
}
