package dev.baton.spring.boot;

import dev.baton.LockClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The application's own configuration in the starter's tests. */
@Configuration(proxyBeanMethods = false)
public class OrdersConfiguration {

  @Bean
  public Orders orders(LockClient client, Activity activity) {
    return new Orders(client, activity);
  }
}
