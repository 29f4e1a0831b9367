package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.connect.LockClients;
import javax.sql.DataSource;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The clients on a store the application configures for itself, for when {@code baton.backend} is unset. Imported in
 * order of precedence, each only where no client was made before it: Redis (Spring Boot's connection details, else
 * the {@code spring.data.redis.*} properties), ZooKeeper (Spring Cloud Zookeeper's connect string, else a Curator
 * bean), then the one DataSource. Each needs its Baton module on the class path (the DataSource, that of its database).
 */
final class ApplicationStoreClients {
  private static final Logger log = LoggerFactory.getLogger(BatonAutoConfiguration.class);

  private ApplicationStoreClients() {}

  /** Connects at startup, so that an unreachable store fails the start; the startup log says which and why. */
  static LockClient connect(BatonProperties properties, ApplicationStore store, ChosenStore chosen) {
    StoreChoice choice = store.choice();
    LockClient client = StoreConnections.connect(store.property(), choice.uri(),
        () -> LockClients.connect(properties.toConnectionSettings(store)));
    chosen.chose(choice);
    log.info(choice.describe());
    return client;
  }

  /** On the Redis of Spring Boot's connection details: spring.data.redis.* or a service connection. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "dev.baton.redis.RedisLockClient")
  @Conditional(OnBackendUnset.class)
  @ConditionalOnSingleCandidate(RedisConnectionDetails.class)
  @ConditionalOnBooleanProperty(name = "baton.enabled", matchIfMissing = true)
  static class RedisConnectionDetailsClient {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LockClient batonRedisLockClient(BatonProperties properties, RedisConnectionDetails details,
        Environment environment, ChosenStore chosen) {
      return connect(properties, RedisStores.of(details, environment), chosen);
    }
  }

  /** On the Redis of the spring.data.redis.* properties, where Spring Data Redis is absent. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "dev.baton.redis.RedisLockClient")
  @Conditional({OnBackendUnset.class, OnRedisProperties.class})
  @ConditionalOnBooleanProperty(name = "baton.enabled", matchIfMissing = true)
  static class RedisPropertiesClient {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean({LockClient.class, RedisConnectionDetails.class})
    LockClient batonRedisLockClient(BatonProperties properties, Environment environment, ChosenStore chosen) {
      return connect(properties, RedisStores.ofProperties(environment), chosen);
    }
  }

  /** On the ZooKeeper of Spring Cloud Zookeeper's connect string. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "dev.baton.zookeeper.ZooKeeperLockClient")
  @Conditional(OnBackendUnset.class)
  @ConditionalOnProperty(ZooKeeperStores.CONNECT_STRING)
  @ConditionalOnBooleanProperty(name = "baton.enabled", matchIfMissing = true)
  static class ZooKeeperConnectStringClient {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LockClient batonZooKeeperLockClient(BatonProperties properties, Environment environment, ChosenStore chosen) {
      return connect(properties,
          ZooKeeperStores.ofConnectString(environment.getProperty(ZooKeeperStores.CONNECT_STRING)), chosen);
    }
  }

  /** On the ZooKeeper of the application's Curator client. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"dev.baton.zookeeper.ZooKeeperLockClient",
      "org.apache.curator.framework.CuratorFramework"})
  @Conditional(OnBackendUnset.class)
  @ConditionalOnSingleCandidate(CuratorFramework.class)
  @ConditionalOnBooleanProperty(name = "baton.enabled", matchIfMissing = true)
  static class CuratorClient {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LockClient batonZooKeeperLockClient(BatonProperties properties, CuratorFramework curator, ChosenStore chosen) {
      return connect(properties,
          ZooKeeperStores.ofCurator(curator.getZookeeperClient().getCurrentConnectionString()), chosen);
    }
  }

  /**
   * On the application's DataSource, a PostgreSQL, MySQL or MariaDB database; also where
   * {@code baton.backend=datasource}.
   */
  @Configuration(proxyBeanMethods = false)
  @Conditional({OnSqlStoreModule.class, OnDataSourceBackend.class})
  @ConditionalOnSingleCandidate(DataSource.class)
  @ConditionalOnBooleanProperty(name = "baton.enabled", matchIfMissing = true)
  static class DataSourceClient {

    /** Connected at startup: a DataSource that does not reach its database fails the start. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LockClient batonDataSourceLockClient(BatonProperties properties, DataSource dataSource, ChosenStore chosen) {
      LockClient client = StoreConnections.connect("baton.backend", "the application's DataSource",
          () -> DataSourceLockClients.connect(properties, dataSource));
      StoreChoice choice = StoreChoice.dataSource(properties);
      chosen.chose(choice);
      log.info(choice.describe());
      return client;
    }
  }
}
