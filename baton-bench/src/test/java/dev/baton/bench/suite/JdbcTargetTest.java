package dev.baton.bench.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/** How the JDBC peers read the test kit's PostgreSQL and MariaDB addresses. */
class JdbcTargetTest {
  @Test
  void aPostgresqlUriBecomesThePostgresqlDriversUrlAndLogin() {
    assertThat(JdbcTarget.of("postgresql://baton:p%40ss@127.0.0.1:5432/postgres"))
        .isEqualTo(new JdbcTarget("jdbc:postgresql://127.0.0.1:5432/postgres", "baton", "p@ss"));
  }

  @Test
  void aMariadbOrMysqlUriBecomesMariaDbConnectorJsUrl() {
    assertThat(JdbcTarget.of("mariadb://baton:secret@127.0.0.1:3306/baton").jdbcUrl())
        .isEqualTo("jdbc:mariadb://127.0.0.1:3306/baton");
    assertThat(JdbcTarget.of("mysql://baton:secret@127.0.0.1:3306/baton").jdbcUrl())
        .isEqualTo("jdbc:mariadb://127.0.0.1:3306/baton");
  }

  @Test
  void anotherSchemeIsRefusedWithTheFormsToUse() {
    assertThatIllegalArgumentException().isThrownBy(() -> JdbcTarget.of("redis://127.0.0.1:6379"))
        .withMessageContaining("redis://").withMessageContaining("mariadb://USER:PASSWORD@HOST:PORT/DB");
  }
}
