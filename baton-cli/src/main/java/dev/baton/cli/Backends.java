package dev.baton.cli;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.connect.LockClients;

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
    if (uri == null || uri.isBlank()) {
      throw new IllegalArgumentException("No backend given: pass --backend URI (e.g. redis://127.0.0.1:6379)"
          + " or set " + ENV + ".");
    }
    return LockClients.connect(uri, defaults);
  }
}
