package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.shedlock.BatonLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** ShedLock's {@link LockProvider} on the client, when baton-shedlock is present and the application has none. */
@AutoConfiguration(after = BatonAutoConfiguration.class)
@ConditionalOnClass({LockProvider.class, BatonLockProvider.class})
@ConditionalOnBean(LockClient.class)
public class BatonShedLockAutoConfiguration {

  /** Locks {@code shedlock/NAME}; closed before the client. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean(LockProvider.class)
  public BatonLockProvider batonLockProvider(LockClient client) {
    return new BatonLockProvider(client);
  }
}
