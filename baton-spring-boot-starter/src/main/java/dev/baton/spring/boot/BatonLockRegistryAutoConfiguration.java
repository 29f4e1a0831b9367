package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.spring.integration.BatonLockRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * Spring Integration's {@link LockRegistry} on the client, when baton-spring-integration is present and the
 * application has none.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class)
@ConditionalOnClass({LockRegistry.class, BatonLockRegistry.class})
@ConditionalOnBean(LockClient.class)
public class BatonLockRegistryAutoConfiguration {

  /** Locks {@code spring-integration/KEY}. */
  @Bean
  @ConditionalOnMissingBean(LockRegistry.class)
  public BatonLockRegistry batonLockRegistry(LockClient client) {
    return new BatonLockRegistry(client);
  }
}
