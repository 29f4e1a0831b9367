package dev.baton.cli;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.redis.RedisLockClient;
import dev.baton.zookeeper.ZooKeeperLockClient;
import java.util.Locale;

/**
 * Connects to the backend a URI names: {@code redis://[:password@]host:port[/db]}, {@code rediss://...},
 * {@code zookeeper://host:port[,host:port][/chroot]}. etcd URIs are recognised and refused until the etcd
 * backend lands.
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
      case "etcd", "http", "https" -> throw new IllegalArgumentException("The etcd backend is not available yet;"
          + " use redis://host:port or zookeeper://host:port.");
      default -> throw new IllegalArgumentException("Unknown backend '" + uri + "': use redis://host:port,"
          + " rediss://host:port or zookeeper://host:port[,host:port][/chroot].");
    };
  }

  private static String scheme(String uri) {
    if (uri == null || uri.isBlank()) {
      throw new IllegalArgumentException("No backend given: pass --backend URI (e.g. redis://127.0.0.1:6379)"
          + " or set " + ENV + ".");
    }
    int colon = uri.indexOf("://");
    if (colon <= 0) {
      throw new IllegalArgumentException("The backend '" + uri + "' is not a URI: use redis://host:port or"
          + " zookeeper://host:port.");
    }
    return uri.substring(0, colon).toLowerCase(Locale.ROOT);
  }
}
