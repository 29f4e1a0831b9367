package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.connect.ConnectionSettings;
import dev.baton.connect.LockClients;
import dev.baton.spring.LockedBeanPostProcessor;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Connects a {@link LockClient} (unless the application declares its own) to the store {@code baton.backend} names,
 * or, with baton-postgres present, on the application's one {@link DataSource} when {@code baton.backend} is unset or
 * {@value BatonProperties#DATA_SOURCE}; and makes {@link dev.baton.spring.Locked @Locked} methods work. The client is
 * closed with the context, which releases every lock it still holds. A start without a client, or whose client
 * cannot connect, fails with a {@link BatonStartupException}, unless {@code baton.enabled=false}.
 */
@AutoConfiguration(afterName = "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration")
@ConditionalOnClass(LockClient.class)
@EnableConfigurationProperties(BatonProperties.class)
public class BatonAutoConfiguration {
  private static final Logger log = LoggerFactory.getLogger(BatonAutoConfiguration.class);

  /**
   * The client of {@code baton.backend}, connected at startup: an unreachable store fails the start, and so does
   * {@value BatonProperties#DATA_SOURCE} where the client on the application's DataSource (below) does not apply.
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "baton", name = "backend")
  @ConditionalOnBooleanProperty(name = "baton.enabled", matchIfMissing = true)
  public LockClient batonLockClient(BatonProperties properties) {
    ConnectionSettings settings = properties.toConnectionSettings();
    StoreChoice choice = StoreChoice.backend(properties);
    LockClient client = StoreConnections.connect("baton.backend", choice.uri(), () -> LockClients.connect(settings));
    log.info(choice.describe());
    return client;
  }

  /** Fails the start when no client was made or declared: see {@link MissingStoreCheck}. */
  @Bean
  @ConditionalOnBooleanProperty(name = "baton.enabled", matchIfMissing = true)
  static SmartInitializingSingleton batonMissingStoreCheck(ObjectProvider<LockClient> clients) {
    return new MissingStoreCheck(clients);
  }

  /**
   * The client on the application's DataSource, a PostgreSQL database: registered before the outer class's client,
   * which it then replaces.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "dev.baton.postgres.PostgresLockClient")
  @ConditionalOnSingleCandidate(DataSource.class)
  @Conditional(OnDataSourceBackend.class)
  @ConditionalOnBooleanProperty(name = "baton.enabled", matchIfMissing = true)
  static class DataSourceClient {

    /** Connected at startup: a DataSource that does not reach PostgreSQL fails the start. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LockClient batonDataSourceLockClient(BatonProperties properties, DataSource dataSource) {
      LockClient client = StoreConnections.connect("baton.backend", "the application's DataSource",
          () -> DataSourceLockClients.connect(properties, dataSource));
      log.info(StoreChoice.dataSource(properties).describe());
      return client;
    }
  }

  /** Proxies the beans with {@code @Locked} methods. */
  @Bean
  @ConditionalOnMissingBean
  public static LockedBeanPostProcessor lockedBeanPostProcessor(ObjectProvider<LockClient> client) {
    return new LockedBeanPostProcessor(client);
  }
}
