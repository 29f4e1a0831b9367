package dev.baton.connect;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.connect.BackendUri.Backend;
import dev.baton.memory.MemoryLockClient;

/**
 * Connects the {@link LockClient} a backend URI names, through the backend module on the class path:
 *
 * <pre>{@code
 * try (LockClient client = LockClients.connect("zookeeper://127.0.0.1:2181")) { ... }
 * }</pre>
 *
 * <p>{@code memory://} and {@code memory://NAME} name a store inside this JVM, baton-core's
 * {@link dev.baton.memory.MemoryLockClient}, for testing code that locks: clients of one name share its store. It
 * takes the default lock options and the namespace, which separates keys as on a server; it ignores the settings for
 * reaching a server (timeouts, credentials, TLS files), so that a configuration made for a server can be switched to
 * {@code memory://} by its URI alone.
 */
public final class LockClients {
  private LockClients() {}

  /**
   * Connects to {@code uri} with the default settings.
   *
   * @throws IllegalArgumentException if the URI is missing, malformed or names an unknown store
   * @throws IllegalStateException if the module for that store is not on the class path
   * @throws dev.baton.BackendUnavailableException if the store cannot be reached
   */
  public static LockClient connect(String uri) {
    return connect(ConnectionSettings.builder(uri).build());
  }

  /** As {@link #connect(String)}, with these default lock options. */
  public static LockClient connect(String uri, LockOptions defaultOptions) {
    return connect(ConnectionSettings.builder(uri).defaultOptions(defaultOptions).build());
  }

  /**
   * Connects as {@code settings} say.
   *
   * @throws IllegalArgumentException if the settings are null, or a setting is one the store does not accept
   * @throws IllegalStateException if the module for the store is not on the class path
   * @throws dev.baton.BackendUnavailableException if the store cannot be reached
   */
  public static LockClient connect(ConnectionSettings settings) {
    if (settings == null) {
      throw new IllegalArgumentException("The connection settings must not be null; use ConnectionSettings.builder(uri).");
    }
    Backend backend = settings.uri().backend();
    if (!backend.isAvailable()) {
      throw new IllegalStateException("The backend '" + settings.uri() + "' needs the module dev.baton:"
          + backend.module() + " on the class path: add it as a dependency.");
    }
    return switch (backend) {
      case REDIS -> RedisConnector.connect(settings);
      case ZOOKEEPER -> ZooKeeperConnector.connect(settings);
      case ETCD -> EtcdConnector.connect(settings);
      case POSTGRES -> PostgresConnector.connect(settings);
      case MYSQL -> MySqlConnector.connect(settings);
      case MEMORY -> MemoryLockClient.connect(settings.uri().value(), settings.namespace().orElse(null),
          settings.defaultOptions());
    };
  }
}
