package dev.baton.spring.boot;

import dev.baton.LockClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The {@code baton} health indicator, when Actuator is present; {@code management.health.baton.enabled=false} turns it off. */
@AutoConfiguration(after = BatonAutoConfiguration.class)
@ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
@ConditionalOnBean(LockClient.class)
@ConditionalOnEnabledHealthIndicator("baton")
public class BatonHealthAutoConfiguration {

  /** Checks that the store answers. */
  @Bean
  @ConditionalOnMissingBean(name = "batonHealthIndicator")
  public BatonHealthIndicator batonHealthIndicator(LockClient client, ObjectProvider<ChosenStore> chosen) {
    StoreChoice choice = chosen.getIfAvailable(ChosenStore::new).get();
    return new BatonHealthIndicator(client, choice.uri(), choice.chosenBy());
  }
}
