package dev.baton.cli;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.connect.BackendUri;
import dev.baton.connect.ConnectionSettings;
import dev.baton.connect.LockClients;
import java.nio.file.Path;

/**
 * Connects to the backend a URI names: {@code redis://host:port[/db]}, {@code rediss://...},
 * {@code redis-sentinel://host:port[,host:port][/db]#master}, {@code rediss-sentinel://...},
 * {@code redis-cluster://host:port[,host:port]}, {@code rediss-cluster://...},
 * {@code zookeeper://host:port[,host:port][/chroot]} (or {@code zk://...}), {@code etcd://host:port[,host:port]} (or
 * {@code http://...}, {@code https://...}), {@code postgresql://host[:port]/db} (or {@code postgres://...},
 * {@code jdbc:postgresql://...}), {@code mysql://host[:port]/db} (or {@code mariadb://...}, {@code jdbc:mysql://...},
 * {@code jdbc:mariadb://...}). The user and password come from the environment ({@link Credentials}),
 * so that no secret shows on a command line; so do etcd's TLS files: {@code BATON_TLS_CA}, {@code BATON_TLS_CERT},
 * {@code BATON_TLS_KEY}. A Redis URI may still carry a password, {@code redis://[user]:password@host}, which then
 * shows in ps(1).
 *
 * <p>{@code memory://[name]}, a store inside this process, is for {@code baton demo} alone ({@link #connectHere}):
 * every other command shares its locks with other processes, which such a store cannot, and refuses it.
 */
final class Backends {
  /** The environment variable that gives {@code --backend} its default. */
  static final String ENV = "BATON_BACKEND";

  /**
   * Every store and every scheme {@link #connect} takes, for the help of {@code -b/--backend}: one list, so that no
   * command's help leaves a store out. One URI a line ({@code %n}), since picocli would break a URI that does not fit
   * where its line would end, after a colon or a comma.
   */
  static final String FORMS = "redis://host:port[/db], rediss://... (TLS),"
      + "%nredis-sentinel://host:port[,host:port][/db]#master,"
      + "%nrediss-sentinel://...,"
      + "%nredis-cluster://host:port[,host:port],"
      + "%nrediss-cluster://...,"
      + "%nzookeeper://host:port[,host:port][/chroot], zk://...,"
      + "%netcd://host:port[,host:port], http://...,"
      + "%nhttps://... (etcd with TLS),"
      + "%npostgresql://host[:port]/db, postgres://...,"
      + "%njdbc:postgresql://...,"
      + "%nmysql://host[:port]/db, mariadb://...,"
      + "%njdbc:mysql://..., jdbc:mariadb://...";

  /** Where the user and password come from, for the help of {@code -b/--backend}. */
  static final String CREDENTIALS = "The password comes from $BATON_PASSWORD or the file $BATON_PASSWORD_FILE names,"
      + " the user from $BATON_USER (a password in the URI shows in ps).";

  /** The help of a command's {@code -b/--backend}, which defaults to {@code $BATON_BACKEND}. */
  static final String OPTION_HELP = "The store, one of:%n" + FORMS + "%nDefault: $" + ENV + ". " + CREDENTIALS;

  /** The help of {@code -b/--backend} for a command that starts a ZooKeeper server of its own without one. */
  static final String EMBEDDED_OPTION_HELP = "The store, one of:%n" + FORMS + "%nDefault: $" + ENV
      + ", else a ZooKeeper server started here. " + CREDENTIALS;

  /** The help of {@code baton demo}'s {@code -b/--backend}: a server's store, or one inside this process. */
  static final String DEMO_OPTION_HELP = "The store, one of:%n" + FORMS + ",%nmemory://[name] (a store inside this"
      + " process)%nDefault: $" + ENV + ", else a ZooKeeper server started here. " + CREDENTIALS;

  private Backends() {}

  /**
   * Connects to the store {@code uri} names, which other processes share.
   *
   * @throws IllegalArgumentException if the URI is missing, malformed, names an unknown store or one inside this
   *     process ({@code memory://}), or the credentials are given twice or are incomplete
   * @throws dev.baton.BackendUnavailableException if the store cannot be reached
   */
  static LockClient connect(String uri, LockOptions defaults) {
    requireShared(uri);
    return connectHere(uri, defaults);
  }

  /**
   * Refuses a store inside this process, {@code memory://}, for a command whose locks other processes share.
   *
   * @throws IllegalArgumentException if {@code uri} is one
   */
  static void requireShared(String uri) {
    if (uri != null && !uri.isBlank() && BackendUri.parse(uri).backend() == BackendUri.Backend.MEMORY) {
      throw new IllegalArgumentException("The backend " + uri.strip() + " is a store inside this process, which no"
          + " other process reaches: give a server's URI (baton demo alone runs on memory://).");
    }
  }

  /**
   * As {@link #connect}, and to a store inside this process too ({@code memory://}): for {@code baton demo}, whose
   * clients are all here.
   */
  static LockClient connectHere(String uri, LockOptions defaults) {
    if (uri == null || uri.isBlank()) {
      throw new IllegalArgumentException("No backend given: pass -b/--backend URI (e.g. redis://127.0.0.1:6379)"
          + " or set " + ENV + ".");
    }
    Credentials credentials = Credentials.from(System.getenv());
    ConnectionSettings.Builder settings = ConnectionSettings.builder(uri).defaultOptions(defaults);
    if (credentials.isPresent() && settings.build().uri().hasCredentials()) {
      throw new IllegalArgumentException("The backend " + settings.build().uri() + " carries a password, and "
          + String.join(" or ", Credentials.VARIABLES) + " gives one too: give it one way, in the environment"
          + " rather than in the URI, which shows in ps.");
    }
    return LockClients.connect(settings.credentials(credentials.user(), credentials.password())
        .tls(path("BATON_TLS_CA"), path("BATON_TLS_CERT"), path("BATON_TLS_KEY"))
        .build());
  }

  /**
   * Whether {@code client}'s store ties a lock without ttl to its holder's session (ZooKeeper), rather than to nothing
   * (a peer's entry without expiry on Redis).
   */
  static boolean hasSessions(LockClient client) {
    return "zookeeper".equals(client.backendName());
  }

  private static Path path(String variable) {
    String value = System.getenv(variable);
    return value == null || value.isBlank() ? null : Path.of(value);
  }
}
