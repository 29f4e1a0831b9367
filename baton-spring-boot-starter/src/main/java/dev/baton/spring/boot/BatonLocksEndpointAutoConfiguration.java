package dev.baton.spring.boot;

import dev.baton.LockClient;
import java.time.Clock;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code locks} Actuator endpoint ({@link LocksEndpoint}), where Actuator is present and the endpoint is
 * available: enabled and exposed ({@code management.endpoints.web.exposure.include=locks}), which no endpoint but
 * {@code health} is by default.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnBean(LockClient.class)
@ConditionalOnAvailableEndpoint(LocksEndpoint.class)
public class BatonLocksEndpointAutoConfiguration {

  /** The endpoint, whose observer is registered on the client at once, before the application takes a lock. */
  @Bean
  @ConditionalOnMissingBean
  public LocksEndpoint batonLocksEndpoint(LockClient client) {
    LocksInUse inUse = new LocksInUse(Clock.systemUTC());
    client.observe(inUse);
    return new LocksEndpoint(client, inUse);
  }
}
