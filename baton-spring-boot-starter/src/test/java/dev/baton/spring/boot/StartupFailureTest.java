package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockClient;
import dev.baton.spring.LockedBeanPostProcessor;
import dev.baton.testkit.RedisServerExtension;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/**
 * What starts and what fails to start: each failure is Spring Boot's report, naming the property and the store
 * without its secrets, and saying what to do.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonHealthAutoConfiguration.class));

  @Test
  void withoutAStoreTheStartFailsSayingWhatToSet() {
    runner.run(context -> {
      FailureAnalysis analysis = analysis(context);
      assertThat(analysis.getDescription()).startsWith("Property baton.backend: Baton has no store to lock on");
      assertThat(analysis.getAction()).contains("baton.backend=redis://127.0.0.1:6379", "baton.enabled=false");
    });
  }

  @Test
  void disabledTheStarterStartsWithoutAClientAndLockedMethodsStillGetTheirProxy() {
    runner.withPropertyValues("baton.enabled=false", "baton.backend=" + redis.uri()).run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(LockClient.class).doesNotHaveBean(BatonHealthIndicator.class);
      assertThat(context).hasSingleBean(LockedBeanPostProcessor.class);
    });
  }

  @Test
  void anUnknownOrMalformedBackendIsReportedWithoutItsPassword() {
    runner.withPropertyValues("baton.backend=mongodb://admin:s3cret@db:27017").run(context -> {
      FailureAnalysis analysis = analysis(context);
      assertThat(analysis.getDescription()).startsWith("Property baton.backend: Unknown backend"
          + " 'mongodb://admin:***@db:27017': use redis://host:port,")
          .endsWith(", postgresql://user:password@host:port/db or mysql://user:password@host:port/db (or mariadb://).");
      assertThat(analysis.getAction()).isEqualTo("Change baton.backend as said above.");
      assertNoSecret(analysis, "s3cret");
    });
    runner.withPropertyValues("baton.backend=redis://:s3cret@").run(context -> {
      FailureAnalysis analysis = analysis(context);
      assertThat(analysis.getDescription()).startsWith("Property baton.backend: ").contains("redis://:***@");
      assertNoSecret(analysis, "s3cret");
    });
  }

  @Test
  void aWrongPasswordIsReportedAsRefusedCredentials() {
    redis.command("ACL", "SETUSER", "billing", "on", ">right-one", "~*", "+@all");
    try {
      String address = redis.uri().substring("redis://".length());
      runner.withPropertyValues("baton.backend=redis://billing:wr0ng@" + address).run(context -> {
        FailureAnalysis analysis = analysis(context);
        assertThat(analysis.getDescription()).startsWith("Property baton.backend: redis://billing@" + address
            + " refused Baton's credentials");
        assertThat(analysis.getAction()).startsWith("Fix the credentials");
        assertNoSecret(analysis, "wr0ng");
      });
    } finally {
      redis.command("ACL", "DELUSER", "billing");
    }
  }

  @Test
  void anUnreachableStoreFailsTheStartWithinTheConnectTimeoutNamingTheAddress() throws IOException {
    int port = closedPort();
    runner.withPropertyValues("baton.backend=redis://:s3cret@127.0.0.1:" + port, "baton.connect-timeout=2s")
        .run(context -> {
          FailureAnalysis analysis = analysis(context);
          assertThat(analysis.getDescription()).startsWith("Property baton.backend: Baton could not reach"
              + " redis://127.0.0.1:" + port + " within the connect timeout");
          assertThat(analysis.getAction()).startsWith("Start the store");
          assertNoSecret(analysis, "s3cret");
        });
  }

  @Test
  void anUnreachableZooKeeperOrEtcdFailsTheStartWithinItsTimeout() throws IOException {
    int port = closedPort();
    runner.withPropertyValues("baton.backend=zookeeper://127.0.0.1:" + port, "baton.connect-timeout=2s")
        .run(context -> assertThat(analysis(context).getDescription()).startsWith("Property baton.backend: Baton"
            + " could not reach zookeeper://127.0.0.1:" + port));
    runner.withPropertyValues("baton.backend=etcd://127.0.0.1:" + port, "baton.command-timeout=2s")
        .run(context -> assertThat(analysis(context).getDescription()).startsWith("Property baton.backend: Baton"
            + " could not reach etcd://127.0.0.1:" + port));
  }

  @Test
  void theHealthDetailsAndTheStartupLogSayWhichStoreWasChosenAndWhy(CapturedOutput output) {
    runner.withPropertyValues("baton.backend=" + redis.uri()).run(context -> {
      Map<String, Object> details = context.getBean(BatonHealthIndicator.class).health().getDetails();
      assertThat(details).containsEntry("uri", redis.uri()).containsEntry("chosenBy", "baton.backend");
    });
    assertThat(output.getAll()).containsOnlyOnce("Baton locks on " + redis.uri() + ", chosen by baton.backend");
  }

  @Test
  void aSpringApplicationThatCannotReachItsStorePrintsBootsReport(CapturedOutput output) throws IOException {
    int port = closedPort();
    SpringApplication application = new SpringApplication(UnreachableStoreApplication.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    assertThatThrownBy(() -> application.run("--baton.backend=redis://:s3cret@127.0.0.1:" + port,
        "--baton.connect-timeout=2s")).hasStackTraceContaining(BatonStartupException.class.getName());
    assertThat(output.getAll()).contains("APPLICATION FAILED TO START", "Description:",
        "Property baton.backend: Baton could not reach redis://127.0.0.1:" + port, "Action:",
        "Start the store").doesNotContain("s3cret");
  }

  /** An application of the starter alone. */
  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration(BatonAutoConfiguration.class)
  static class UnreachableStoreApplication {}

  private static FailureAnalysis analysis(AssertableApplicationContext context) {
    assertThat(context).hasFailed();
    FailureAnalysis analysis = new BatonStartupFailureAnalyzer().analyze(context.getStartupFailure());
    assertThat(analysis).as("a BatonStartupException in %s", context.getStartupFailure()).isNotNull();
    return analysis;
  }

  private static void assertNoSecret(FailureAnalysis analysis, String secret) {
    assertThat(analysis.getDescription()).doesNotContain(secret);
    assertThat(analysis.getAction()).doesNotContain(secret);
  }

  /** A port nothing listens on: one this test opened and closed. */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
