package dev.baton.cli;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.connect.ConnectionSettings;
import dev.baton.connect.LockClients;
import java.nio.file.Path;

/**
 * Connects to the backend a URI names: {@code redis://[:password@]host:port[/db]}, {@code rediss://...},
 * {@code zookeeper://host:port[,host:port][/chroot]}, {@code etcd://host:port[,host:port]} (or
 * {@code http://...}, {@code https://...}). A ZooKeeper digest user or an etcd user, and etcd's TLS files,
 * come from the environment, so that no secret shows on a command line: {@code BATON_USER},
 * {@code BATON_PASSWORD}, {@code BATON_TLS_CA}, {@code BATON_TLS_CERT}, {@code BATON_TLS_KEY}.
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
    ConnectionSettings settings = ConnectionSettings.builder(uri).defaultOptions(defaults)
        .credentials(System.getenv("BATON_USER"), System.getenv("BATON_PASSWORD"))
        .tls(path("BATON_TLS_CA"), path("BATON_TLS_CERT"), path("BATON_TLS_KEY"))
        .build();
    return LockClients.connect(settings);
  }

  private static Path path(String variable) {
    String value = System.getenv(variable);
    return value == null || value.isBlank() ? null : Path.of(value);
  }
}
