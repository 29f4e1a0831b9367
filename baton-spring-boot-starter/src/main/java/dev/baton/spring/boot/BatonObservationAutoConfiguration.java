package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.micrometer.BatonObservations;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Observes the {@link LockClient}'s waits and holds in the application's {@link ObservationRegistry} (Spring Boot's,
 * with Actuator), so that with Micrometer Tracing a lock wait is a span of the request that waited; needs
 * baton-micrometer, which comes with the starter; {@code baton.observations.enabled=false} turns it off.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class,
    afterName = "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration")
@ConditionalOnClass({ObservationRegistry.class, BatonObservations.class})
@ConditionalOnBean({LockClient.class, ObservationRegistry.class})
@ConditionalOnProperty(prefix = "baton.observations", name = "enabled", matchIfMissing = true)
public class BatonObservationAutoConfiguration {

  /** The observations, bound as soon as the client exists. */
  @Bean
  @ConditionalOnMissingBean
  public BatonObservations batonObservations(LockClient client, ObservationRegistry registry) {
    return BatonObservations.bind(client, registry);
  }
}
