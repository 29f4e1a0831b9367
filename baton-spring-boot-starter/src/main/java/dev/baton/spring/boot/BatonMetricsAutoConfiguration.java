package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.micrometer.BatonMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Meters the {@link LockClient} in the application's {@link MeterRegistry} where Micrometer is present (Actuator
 * brings it; baton-micrometer comes with the starter); {@code baton.metrics.enabled=false} turns it off,
 * {@code baton.metrics.key-tag=true} adds key tags.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class,
    afterName = "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass({MeterRegistry.class, BatonMetrics.class})
@ConditionalOnBean({LockClient.class, MeterRegistry.class})
@ConditionalOnProperty(prefix = "baton.metrics", name = "enabled", matchIfMissing = true)
public class BatonMetricsAutoConfiguration {

  /** The meters, bound as soon as the client exists. */
  @Bean
  @ConditionalOnMissingBean
  public BatonMetrics batonMetrics(LockClient client, MeterRegistry registry, BatonProperties properties) {
    return BatonMetrics.bind(client, registry, properties.getMetrics().isKeyTag());
  }
}
