package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.internal.Redaction;
import dev.baton.postgres.PostgresLockClient;
import dev.baton.servers.PostgresServer;
import dev.baton.testkit.PostgresServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The starter on the application's own DataSource, the HikariCP pool Spring Boot makes from {@code spring.datasource.*}
 * of a real PostgreSQL server: with {@code baton.backend=datasource} the whole starter contract, and what the
 * DataSource path does when the backend is unset, names a store, or cannot be served.
 */
class PostgresDataSourceStarterTest extends StarterContract {
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  private final ApplicationContextRunner bare = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class));

  @Override
  protected String backend() {
    return BatonProperties.DATA_SOURCE;
  }

  @Override
  protected String backendName() {
    return "postgres";
  }

  @Override
  protected ApplicationContextRunner application(ApplicationContextRunner runner) {
    return withDataSource(runner);
  }

  @Test
  void anUnsetBackendLocksOnTheApplicationsDataSource() {
    withDataSource(bare).run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(LockClient.class).hasBean("batonDataSourceLockClient");
      LockClient client = context.getBean(LockClient.class);
      assertThat(client.backendName()).isEqualTo("postgres");
      try (Lease lease = client.lock("datasource").acquire(Duration.ofSeconds(5))) {
        assertThat(client.status("datasource").fencingToken()).hasValue(lease.fencingToken());
      }
    });
  }

  @Test
  void aStoresUriWinsOverTheDataSource() {
    withDataSource(bare).withPropertyValues("baton.backend=" + postgres.uri()).run(context ->
        assertThat(context).hasNotFailed().hasSingleBean(LockClient.class).hasBean("batonLockClient"));
  }

  @Test
  void datasourceWithoutADataSourceFailsTheStartSayingWhatItNeeds() {
    bare.withPropertyValues("baton.backend=datasource").run(context ->
        assertThat(context).getFailure().hasStackTraceContaining("Property baton.backend: datasource")
            .hasStackTraceContaining("exactly one DataSource bean"));
  }

  /** On PostgreSQL the namespace is the lock table, NAME_locks, as on a store's URI. */
  @Test
  void theNamespaceIsTheLockTable() {
    withDataSource(bare).withPropertyValues("baton.namespace=billing").run(context -> {
      LockClient client = context.getBean(LockClient.class);
      try (LockClient sameTable = PostgresLockClient.builder().address(postgres.uri()).table("billing_locks").connect();
          LockClient plain = PostgresLockClient.builder().address(postgres.uri()).connect();
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
  void settingsADataSourceCannotTakeFailTheStartNamingTheProperty() {
    withDataSource(bare).withPropertyValues("baton.username=billing").run(context ->
        assertThat(context).getFailure().hasStackTraceContaining("Property baton.username: does not apply"));
    withDataSource(bare).withPropertyValues("baton.ttl=10ms").run(context ->
        assertThat(context).getFailure().hasStackTraceContaining("Property baton.ttl"));
  }

  @Test
  void theHealthDetailsSayTheDataSourceWasChosenAndWhy() {
    withDataSource(bare).withConfiguration(AutoConfigurations.of(BatonHealthAutoConfiguration.class)).run(context ->
        assertThat(context.getBean(BatonHealthIndicator.class).health().getDetails())
            .containsEntry("chosenBy", "the application's DataSource, as baton.backend is unset")
            .doesNotContainKey("uri"));
  }

  @Test
  void aStoreNotSetUpIsReportedWithWhatToRun() {
    String missingDatabase = postgres.uri().replace("/postgres", "/no_such_db");
    bare.withPropertyValues("baton.backend=" + missingDatabase).run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = new BatonStartupFailureAnalyzer().analyze(context.getStartupFailure());
      String store = Redaction.withoutSecrets(missingDatabase);
      assertThat(analysis.getDescription()).startsWith("Property baton.backend: " + store + " is not set up for Baton: ")
          .contains("no_such_db");
      assertThat(analysis.getAction()).contains("DDL of docs/postgresql.md");
      assertThat(analysis.getDescription() + analysis.getAction()).doesNotContain(PostgresServer.PASSWORD);
    });
  }

  private static ApplicationContextRunner withDataSource(ApplicationContextRunner runner) {
    return runner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=" + postgres.jdbcUrl(),
            "spring.datasource.username=" + PostgresServer.USER, "spring.datasource.password=" + PostgresServer.PASSWORD);
  }
}
