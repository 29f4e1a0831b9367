package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.connect.ConnectionSettings;
import dev.baton.connect.LockClients;
import dev.baton.spring.LockedBeanPostProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Connects a {@link LockClient} (unless the application declares its own) to the store {@code baton.backend} names,
 * or, when it is unset, to a store the application configures for itself (see {@link ApplicationStoreClients}: its
 * Redis, its ZooKeeper, its one DataSource); and makes {@link dev.baton.spring.Locked @Locked} methods work. The client is
 * closed with the context, which releases every lock it still holds. A start without a client, or whose client
 * cannot connect, fails with a {@link BatonStartupException}, unless {@code baton.enabled=false}.
 */
@AutoConfiguration(afterName = {"org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
    "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
    "org.springframework.cloud.zookeeper.ZookeeperAutoConfiguration"})
@ConditionalOnClass(LockClient.class)
@EnableConfigurationProperties(BatonProperties.class)
@Import({ApplicationStoreClients.RedisConnectionDetailsClient.class, ApplicationStoreClients.RedisPropertiesClient.class,
    ApplicationStoreClients.ZooKeeperConnectStringClient.class, ApplicationStoreClients.CuratorClient.class,
    ApplicationStoreClients.DataSourceClient.class})
public class BatonAutoConfiguration {
  private static final Logger log = LoggerFactory.getLogger(BatonAutoConfiguration.class);

  /**
   * The client of {@code baton.backend}, connected at startup: an unreachable store fails the start, and so does
   * {@value BatonProperties#DATA_SOURCE} where the client on the application's DataSource ({@link ApplicationStoreClients}) does not apply.
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "baton", name = "backend")
  @ConditionalOnBooleanProperty(name = "baton.enabled", matchIfMissing = true)
  public LockClient batonLockClient(BatonProperties properties, ChosenStore chosen) {
    ConnectionSettings settings = properties.toConnectionSettings();
    StoreChoice choice = StoreChoice.backend(properties);
    LockClient client = StoreConnections.connect("baton.backend", choice.uri(), () -> LockClients.connect(settings));
    chosen.chose(choice);
    log.info(choice.describe());
    return client;
  }

  /** What chose the store of the starter's client, for the health details. */
  @Bean
  static ChosenStore batonChosenStore() {
    return new ChosenStore();
  }

  /** Fails the start when no client was made or declared: see {@link MissingStoreCheck}. */
  @Bean
  @ConditionalOnBooleanProperty(name = "baton.enabled", matchIfMissing = true)
  static SmartInitializingSingleton batonMissingStoreCheck(ObjectProvider<LockClient> clients) {
    return new MissingStoreCheck(clients);
  }

  /** Proxies the beans with {@code @Locked} methods. */
  @Bean
  @ConditionalOnMissingBean
  public static LockedBeanPostProcessor lockedBeanPostProcessor(ObjectProvider<LockClient> client) {
    return new LockedBeanPostProcessor(client);
  }
}
