package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.connect.LockClients;
import dev.baton.spring.LockedBeanPostProcessor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Connects a {@link LockClient} when {@code baton.backend} is set (unless the application declares its own), and
 * makes {@link dev.baton.spring.Locked @Locked} methods work. The client is closed with the context, which
 * releases every lock it still holds.
 */
@AutoConfiguration
@ConditionalOnClass(LockClient.class)
@EnableConfigurationProperties(BatonProperties.class)
public class BatonAutoConfiguration {

  /** The client of {@code baton.backend}, connected at startup: an unreachable store fails the start. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "baton", name = "backend")
  public LockClient batonLockClient(BatonProperties properties) {
    return LockClients.connect(properties.toConnectionSettings());
  }

  /** Proxies the beans with {@code @Locked} methods. */
  @Bean
  @ConditionalOnMissingBean
  public static LockedBeanPostProcessor lockedBeanPostProcessor(ObjectProvider<LockClient> client) {
    return new LockedBeanPostProcessor(client);
  }
}
