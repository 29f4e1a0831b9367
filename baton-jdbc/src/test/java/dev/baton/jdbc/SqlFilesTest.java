package dev.baton.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lock table names that SQL takes unquoted, and nothing else; the store's files with the names filled in. */
class SqlFilesTest {

  @Test
  void lowerCaseNamesAreTakenOptionallyQualified() {
    assertThat(SqlFiles.checkTable("baton_locks", "mydb")).isEqualTo("baton_locks");
    assertThat(SqlFiles.checkTable("billing.orders_locks", "mydb")).isEqualTo("billing.orders_locks");
    assertThat(SqlFiles.isTable("a".repeat(41))).isTrue();
  }

  @Test
  void anyOtherNameIsRefusedNotEscaped() {
    for (String table : List.of("Locks", "a;drop", "a b", "`a`", "\"a\"", "a'b", "a.b.c", "1a", "", "a".repeat(42))) {
      assertThatThrownBy(() -> SqlFiles.checkTable(table, "myschema"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("The lock table must be a lower-case name such as baton_locks or myschema.baton_locks (letters,"
              + " digits and _, at most 41 characters each part), but was '" + table + "'.");
    }
    assertThat(SqlFiles.isTable(null)).isFalse();
  }

  @Test
  void theNamesAreFilledIn() {
    SqlFiles files = new SqlFiles(name -> new ByteArrayInputStream(
        (" DELETE FROM {table} USE INDEX ({index}) -- " + name + "\n").getBytes(StandardCharsets.UTF_8)),
        "a test", "db.t_locks", "t_locks_expires_at");

    assertThat(files.read("sweep.sql")).isEqualTo("DELETE FROM db.t_locks USE INDEX (t_locks_expires_at) -- sweep.sql");
  }

  @Test
  void aMissingFileIsNamed() {
    SqlFiles files = new SqlFiles(name -> null, "baton-test (dev/baton/test)", "t", "t_expires_at");

    assertThatThrownBy(() -> files.read("gone.sql")).isInstanceOf(IllegalStateException.class)
        .hasMessage("The resource gone.sql is missing from baton-test (dev/baton/test).");
  }
}
