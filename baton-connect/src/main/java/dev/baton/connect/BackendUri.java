package dev.baton.connect;

import dev.baton.internal.Redaction;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A backend URI, read: {@code redis://[:password@]host:port[/db]}, {@code rediss://...},
 * {@code redis-sentinel://[:password@]host:port[,host:port][/db]#master} (or {@code rediss-sentinel://} for TLS),
 * {@code redis-cluster://[:password@]host:port[,host:port]} (or {@code rediss-cluster://} for TLS),
 * {@code zookeeper://host:port[,host:port][/chroot]} (or {@code zk://}), {@code etcd://host:port[,host:port]}
 * (or {@code http://}, {@code https://}), {@code postgresql://user:password@host:port/db} (or {@code postgres://},
 * {@code jdbc:postgresql://}), {@code mysql://user:password@host:port/db} (or {@code mariadb://}, {@code jdbc:mysql://},
 * {@code jdbc:mariadb://}), {@code memory://[name]} (a store inside this JVM, for tests: see
 * {@link dev.baton.memory.MemoryLockClient}). Its {@link #toString()} hides the password and the secret query parameters. A query parameter
 * {@code compat=PEER} asks for locks that exclude another library's on the same names: {@code compat=redisson} on
 * Redis, {@code compat=curator} on ZooKeeper, {@code compat=etcd} on etcd.
 */
public final class BackendUri {
  private static final String COMPAT = "compat=";

  private static final String FORMS = "redis://host:port, rediss://host:port,"
      + " redis-sentinel://host:port[,host:port]#master, redis-cluster://host:port[,host:port],"
      + " zookeeper://host:port[,host:port][/chroot]"
      + ", etcd://host:port[,host:port], memory://[name] (a store inside this JVM)"
      + ", postgresql://user:password@host:port/db or mysql://user:password@host:port/db (or mariadb://)";

  private final String uri;
  private final String scheme;
  private final Backend backend;
  private final String compat;
  /** The URI without its compat parameter. */
  private final String withoutCompat;

  private BackendUri(String uri, String scheme, Backend backend) {
    this.uri = uri;
    this.scheme = scheme;
    this.backend = backend;
    // The query ends where a fragment starts (a Redis Sentinel URI's #master), before or after it.
    int query = uri.indexOf('?');
    int queryEnd = query < 0 || uri.indexOf('#', query) < 0 ? uri.length() : uri.indexOf('#', query);
    String compatValue = null;
    StringBuilder rest = new StringBuilder(query < 0 ? uri : uri.substring(0, query));
    if (query >= 0) {
      char separator = '?';
      for (String parameter : uri.substring(query + 1, queryEnd).split("&")) {
        if (parameter.startsWith(COMPAT)) {
          compatValue = parameter.substring(COMPAT.length());
        } else if (!parameter.isEmpty()) {
          rest.append(separator).append(parameter);
          separator = '&';
        }
      }
      rest.append(uri, queryEnd, uri.length());
    }
    this.compat = compatValue;
    this.withoutCompat = rest.toString();
  }

  /**
   * Reads {@code uri}.
   *
   * @throws IllegalArgumentException if it is blank, not a URI, has nothing after the scheme (but {@code memory://})
   *     or names an unknown store
   */
  public static BackendUri parse(String uri) {
    if (uri == null || uri.isBlank()) {
      throw new IllegalArgumentException("No backend URI given: use " + FORMS + ", e.g. redis://127.0.0.1:6379.");
    }
    String trimmed = uri.trim();
    int separator = trimmed.indexOf("://");
    if (separator <= 0) {
      throw new IllegalArgumentException("The backend '" + Redaction.uri(trimmed) + "' is not a URI: use " + FORMS + ".");
    }
    String scheme = trimmed.substring(0, separator).toLowerCase(Locale.ROOT);
    if (separator + 3 == trimmed.length() && !scheme.equals("memory")) {
      throw new IllegalArgumentException("The backend '" + Redaction.uri(trimmed) + "' names no server: use " + FORMS + ".");
    }
    Backend backend = switch (scheme) {
      case "redis", "rediss", "redis-sentinel", "rediss-sentinel", "redis-cluster", "rediss-cluster" -> Backend.REDIS;
      case "zookeeper", "zk" -> Backend.ZOOKEEPER;
      case "etcd", "http", "https" -> Backend.ETCD;
      case "postgresql", "postgres", "jdbc:postgresql" -> Backend.POSTGRES;
      case "mysql", "mariadb", "jdbc:mysql", "jdbc:mariadb" -> Backend.MYSQL;
      case "memory" -> Backend.MEMORY;
      default -> throw new IllegalArgumentException("Unknown backend '" + Redaction.uri(trimmed) + "': use " + FORMS + ".");
    };
    BackendUri parsed = new BackendUri(trimmed, scheme, backend);
    parsed.checkCompat();
    return parsed;
  }

  /** Refuses a compat value the named store does not offer. */
  private void checkCompat() {
    if (compat == null || backend.compatModes().contains(compat)) {
      return;
    }
    throw new IllegalArgumentException("The backend '" + this + "' asks for compat=" + compat + ", which Baton does not"
        + " offer on " + backend.name().toLowerCase(Locale.ROOT) + (backend.compatModes().isEmpty() ? ""
        : " (it offers compat=" + String.join(", compat=", backend.compatModes()) + ")")
        + "; Redis offers compat=redisson, ZooKeeper compat=curator, etcd compat=etcd. Remove the parameter.");
  }

  /** The {@code compat} parameter: whose locks this client's should exclude besides Baton's, if given. */
  public Optional<String> compat() {
    return Optional.ofNullable(compat);
  }

  /** The store this URI names. */
  public Backend backend() {
    return backend;
  }

  /** The scheme as written, in lower case: {@code redis}, {@code rediss}, {@code redis-sentinel}, {@code zk}, ... */
  public String scheme() {
    return scheme;
  }

  /**
   * Everything after {@code scheme://} but the {@code compat} parameter: the servers, and the password, database,
   * chroot, master name or other parameters if given.
   */
  public String address() {
    return withoutCompat.substring(scheme.length() + 3);
  }

  /** The URI as given but the {@code compat} parameter, password included: for connecting, never for showing. */
  public String value() {
    return withoutCompat;
  }

  /**
   * Whether the URI carries a secret: a password in its user info (or a user info Redis reads as one), or a secret
   * query parameter such as PostgreSQL's {@code password} ({@link Redaction#hasSecrets}).
   */
  public boolean hasCredentials() {
    return Redaction.hasSecrets(uri);
  }

  /** The URI with its secrets hidden ({@link Redaction#uri}), for logs and messages. */
  @Override
  public String toString() {
    return Redaction.uri(uri);
  }

  /** The stores a URI can name, with the module that talks to each. */
  public enum Backend {
    /** Redis, through {@code dev.baton:baton-redis}. */
    REDIS("baton-redis", "dev.baton.redis.RedisLockClient", List.of("redisson")),
    /** ZooKeeper, through {@code dev.baton:baton-zookeeper}. */
    ZOOKEEPER("baton-zookeeper", "dev.baton.zookeeper.ZooKeeperLockClient", List.of("curator")),
    /** etcd, through {@code dev.baton:baton-etcd}. */
    ETCD("baton-etcd", "dev.baton.etcd.EtcdLockClient", List.of("etcd")),
    /** PostgreSQL, through {@code dev.baton:baton-postgres}. */
    POSTGRES("baton-postgres", "dev.baton.postgres.PostgresLockClient", List.of()),
    /** MySQL or MariaDB, through {@code dev.baton:baton-mysql}. */
    MYSQL("baton-mysql", "dev.baton.mysql.MySqlLockClient", List.of()),
    /** A store inside this JVM, through {@code dev.baton:baton-core} itself: always available. */
    MEMORY("baton-core", "dev.baton.memory.MemoryLockClient", List.of());

    private final String module;
    private final String entryPoint;
    private final List<String> compatModes;

    Backend(String module, String entryPoint, List<String> compatModes) {
      this.module = module;
      this.entryPoint = entryPoint;
      this.compatModes = compatModes;
    }

    /** The values of {@code compat} this store's module offers. */
    public List<String> compatModes() {
      return compatModes;
    }

    /** The artifact id of the module that talks to this store. */
    public String module() {
      return module;
    }

    /** Whether that module is on the class path. */
    public boolean isAvailable() {
      try {
        Class.forName(entryPoint, false, BackendUri.class.getClassLoader());
        return true;
      } catch (ClassNotFoundException e) {
        return false;
      }
    }
  }
}
