package dev.baton.spring.boot;

import dev.baton.LockClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Fails the start when, every bean being made, the application has no {@link LockClient}: {@code @Locked} methods
 * would otherwise fail on every call, long after the start looked fine.
 */
final class MissingStoreCheck implements SmartInitializingSingleton {
  private final ObjectProvider<LockClient> clients;

  MissingStoreCheck(ObjectProvider<LockClient> clients) {
    this.clients = clients;
  }

  @Override
  public void afterSingletonsInstantiated() {
    if (clients.stream().findAny().isEmpty()) {
      throw new BatonStartupException("baton.backend", "Baton has no store to lock on: baton.backend is unset, and"
          + " the application configures none that Baton can use: no Redis (spring.data.redis.*) with"
          + " dev.baton:baton-redis, no ZooKeeper (spring.cloud.zookeeper.connect-string or a CuratorFramework bean)"
          + " with dev.baton:baton-zookeeper, no single DataSource bean with dev.baton:baton-postgres (PostgreSQL) or"
          + " dev.baton:baton-mysql (MySQL, MariaDB).",
          "Set baton.backend to a store's URI, such as baton.backend=redis://127.0.0.1:6379 (with"
          + " dev.baton:baton-redis), add the Baton module of the store the application already uses, or declare a"
          + " LockClient bean; or set baton.enabled=false to start without a store (@Locked methods then fail when"
          + " called).", null);
    }
  }
}
