package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.mysql.MySqlLockClient;
import dev.baton.postgres.PostgresLockClient;
import dev.baton.servers.MariaDbServer;
import dev.baton.testkit.MariaDbServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The starter on the application's own DataSource whose URL is MariaDB's ({@code jdbc:mariadb:}), the HikariCP pool
 * Spring Boot makes from {@code spring.datasource.*} of a real MariaDB server: with {@code baton.backend=datasource}
 * the whole starter contract, and with the backend unset a MySQL client on it, its namespace the lock table.
 */
class MySqlDataSourceStarterTest extends StarterContract {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  private final ApplicationContextRunner bare = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class));

  @Override
  protected String backend() {
    return BatonProperties.DATA_SOURCE;
  }

  @Override
  protected String backendName() {
    return "mysql";
  }

  @Override
  protected ApplicationContextRunner application(ApplicationContextRunner runner) {
    return withDataSource(runner);
  }

  @Test
  void anUnsetBackendLocksOnTheApplicationsMariaDbDataSource() {
    withDataSource(bare).run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(LockClient.class).hasBean("batonDataSourceLockClient");
      LockClient client = context.getBean(LockClient.class);
      assertThat(client.backendName()).isEqualTo("mysql");
      try (LockClient direct = MySqlLockClient.connect(mariadb.uri());
          Lease lease = client.lock("datasource").acquire(Duration.ofSeconds(5))) {
        assertThat(direct.lock("datasource").tryAcquire()).as("a client of the same database").isEmpty();
        assertThat(direct.status("datasource").fencingToken()).hasValue(lease.fencingToken());
      }
    });
  }

  /** On MySQL, as on PostgreSQL, the namespace is the lock table, NAME_locks. */
  @Test
  void theNamespaceIsTheLockTable() {
    withDataSource(bare).withPropertyValues("baton.namespace=billing").run(context -> {
      LockClient client = context.getBean(LockClient.class);
      try (LockClient sameTable = MySqlLockClient.builder().address(mariadb.uri()).table("billing_locks").connect();
          LockClient plain = MySqlLockClient.connect(mariadb.uri());
          Lease lease = client.lock("namespaced").acquire(Duration.ofSeconds(5))) {
        assertThat(sameTable.lock("namespaced").tryAcquire()).as("a client of the table billing_locks").isEmpty();
        assertThat(plain.lock("namespaced").tryAcquire()).as("a client of the default table").isPresent()
            .hasValueSatisfying(Lease::close);
      }
    });
    withDataSource(bare).withPropertyValues("baton.namespace=Billing").run(context ->
        assertThat(context).getFailure().hasStackTraceContaining("Property baton.namespace: The namespace names"));
  }

  @Test
  void withoutAModuleThatLocksOnADataSourceTheStartFailsNamingBatonMysql() {
    withDataSource(bare).withClassLoader(new FilteredClassLoader(MySqlLockClient.class, PostgresLockClient.class))
        .run(context -> assertThat(context).getFailure().hasStackTraceContaining("dev.baton:baton-mysql"));
  }

  private static ApplicationContextRunner withDataSource(ApplicationContextRunner runner) {
    return runner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=" + mariadb.jdbcUrl(),
            "spring.datasource.username=" + MariaDbServer.USER, "spring.datasource.password=" + MariaDbServer.PASSWORD);
  }
}
