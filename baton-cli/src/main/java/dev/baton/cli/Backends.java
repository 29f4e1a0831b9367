package dev.baton.cli;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.etcd.EtcdLockClient;
import dev.baton.redis.RedisLockClient;
import dev.baton.zookeeper.ZooKeeperLockClient;
import java.util.Locale;

/**
 * Connects to the backend a URI names: {@code redis://[:password@]host:port[/db]}, {@code rediss://...},
 * {@code zookeeper://host:port[,host:port][/chroot]}, {@code etcd://host:port[,host:port]} (or
 * {@code http://...}, {@code https://...}).
 */
final class Backends {
  /** The environment variable that gives {@code --backend} its default. */
  static final String ENV = "BATON_BACKEND";

  private Backends() {}

  /**
   * @throws IllegalArgumentException if the URI is missing, malformed or names an unknown store
   * @throws dev.baton.BackendUnavailableException if the store cannot be reached
   */
  static LockClient connect(String uri, LockOptions defaults) {
    String scheme = scheme(uri);
    return switch (scheme) {
      case "redis", "rediss" -> RedisLockClient.builder().uri(uri).defaultOptions(defaults).connect();
      case "zookeeper", "zk" -> ZooKeeperLockClient.builder().connectString(uri.substring(scheme.length() + 3))
          .defaultOptions(defaults).connect();
      case "etcd", "http", "https" -> EtcdLockClient.builder().endpoints(uri).defaultOptions(defaults).connect();
      default -> throw new IllegalArgumentException("Unknown backend '" + uri + "': use redis://host:port,"
          + " rediss://host:port, zookeeper://host:port[,host:port][/chroot] or etcd://host:port[,host:port].");
    };
  }

  private static String scheme(String uri) {
    if (uri == null || uri.isBlank()) {
      throw new IllegalArgumentException("No backend given: pass --backend URI (e.g. redis://127.0.0.1:6379)"
          + " or set " + ENV + ".");
    }
    int colon = uri.indexOf("://");
    if (colon <= 0) {
      throw new IllegalArgumentException("The backend '" + uri + "' is not a URI: use redis://host:port,"
          + " zookeeper://host:port or etcd://host:port.");
    }
    return uri.substring(0, colon).toLowerCase(Locale.ROOT);
  }
}
