package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockClient;
import dev.baton.connect.LockClients;
import dev.baton.micrometer.BatonMetrics;
import dev.baton.micrometer.BatonObservations;
import dev.baton.servers.TcpProxy;
import dev.baton.testkit.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** What the starter does with missing, bad and unusual settings, and what it tells IDEs. */
@Timeout(60)
class StarterSettingsTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonHealthAutoConfiguration.class));

  @Test
  void aBadValueFailsTheStartNamingTheProperty() {
    runner.withPropertyValues("baton.backend=" + redis.uri(), "baton.ttl=10ms").run(context ->
        assertThat(context).getFailure().hasStackTraceContaining("Property baton.ttl: ttl must be at least 100 ms"));
    runner.withPropertyValues("baton.backend=" + redis.uri(), "baton.namespace=/orders").run(context ->
        assertThat(context).getFailure().hasStackTraceContaining("Property baton.namespace: The namespace must be")
            .hasStackTraceContaining("'/orders'"));
  }

  @Test
  void credentialsAndTlsFilesAreCheckedAgainstTheBackendNamingTheProperty() {
    runner.withPropertyValues("baton.backend=" + redis.uri(), "baton.username=billing").run(context ->
        assertThat(context).getFailure().hasStackTraceContaining("Property baton.username: Credentials need a"
            + " password"));
    runner.withPropertyValues("baton.backend=" + redis.uri(), "baton.tls.trusted-ca=/etc/ca.crt").run(context ->
        assertThat(context).getFailure().hasStackTraceContaining("Property baton.tls: TLS files apply to etcd"));
  }

  @Test
  void theNamespaceIsThePrefixOfTheKeysAtTheStore() {
    runner.withPropertyValues("baton.backend=" + redis.uri(), "baton.namespace=shop").run(context -> {
      try (var lease = context.getBean(LockClient.class).lock("cart").acquire()) {
        assertThat(redis.command("EXISTS", "shop:lock:cart")).isEqualTo(1L);
      }
    });
  }

  @Test
  void anApplicationsOwnClientIsUsedAndLeftAlone() {
    try (LockClient own = LockClients.connect(redis.uri())) {
      runner.withPropertyValues("baton.backend=redis://127.0.0.1:1").withBean(LockClient.class, () -> own)
          .run(context -> assertThat(context).hasNotFailed().getBean(LockClient.class).isSameAs(own));
    }
  }

  @Test
  void theHealthIndicatorCanBeTurnedOff() {
    runner.withPropertyValues("baton.backend=" + redis.uri(), "management.health.baton.enabled=false")
        .run(context -> assertThat(context).hasSingleBean(LockClient.class).doesNotHaveBean(BatonHealthIndicator.class));
  }

  @Test
  void healthIsDownWhileTheStoreDoesNotAnswerAndWhenTheClientIsClosed() {
    try (TcpProxy proxy = TcpProxy.start("127.0.0.1", redis.server().port())) {
      runner.withPropertyValues("baton.backend=redis://" + proxy.address(), "baton.command-timeout=300ms").run(context -> {
        BatonHealthIndicator health = context.getBean(BatonHealthIndicator.class);
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        assertThat(health.health().getDetails()).containsEntry("uri", "redis://" + proxy.address());

        proxy.holdReplies();
        assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
        proxy.dropConnections();
        proxy.resumeReplies();
        await().atMost(Duration.ofSeconds(10)).until(() -> health.health().getStatus().equals(Status.UP));

        context.getBean(LockClient.class).close();
        assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
      });
    }
  }

  @Test
  void metersTheClientWhenTheApplicationHasAMeterRegistry() {
    ApplicationContextRunner metered = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonMetricsAutoConfiguration.class))
        .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
        .withPropertyValues("baton.backend=" + redis.uri(), "baton.metrics.key-tag=true");
    metered.run(context -> {
      try (var lease = context.getBean(LockClient.class).lock("metered").acquire()) {
        MeterRegistry registry = context.getBean(MeterRegistry.class);
        assertThat(registry.get("baton.lock.held").gauge().value()).isEqualTo(1);
        assertThat(registry.get("baton.lock.acquire").tags("key", "metered", "outcome", "acquired").timer().count())
            .isEqualTo(1);
      }
    });
    metered.withPropertyValues("baton.metrics.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(BatonMetrics.class));
  }

  @Test
  void observesTheClientWhenTheApplicationHasAnObservationRegistry() {
    ApplicationContextRunner observed = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonObservationAutoConfiguration.class))
        .withBean(ObservationRegistry.class, ObservationRegistry::create)
        .withPropertyValues("baton.backend=" + redis.uri());
    observed.run(context -> assertThat(context).hasSingleBean(BatonObservations.class));
    observed.withPropertyValues("baton.observations.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(BatonObservations.class));
  }

  @Test
  void configurationMetadataDescribesEveryProperty() throws Exception {
    String metadata;
    try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("generated by spring-boot-configuration-processor").isNotNull();
      metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(metadata).contains("\"baton.enabled\"", "\"baton.backend\"", "\"baton.namespace\"", "\"baton.ttl\"",
        "\"baton.wait-time\"", "\"baton.hold-timeout\"", "\"baton.fair\"", "\"baton.connect-timeout\"", "\"baton.command-timeout\"",
        "\"baton.session-timeout\"", "\"baton.metrics.key-tag\"", "\"baton.metrics.enabled\"",
        "\"baton.observations.enabled\"",
        "\"defaultValue\": \"30s\"", "zookeeper:\\/\\/127.0.0.1:2181");
  }
}
