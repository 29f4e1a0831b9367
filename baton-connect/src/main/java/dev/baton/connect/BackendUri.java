package dev.baton.connect;

import dev.baton.spi.Redaction;
import java.util.Locale;

/**
 * A backend URI, read: {@code redis://[:password@]host:port[/db]}, {@code rediss://...},
 * {@code redis-sentinel://[:password@]host:port[,host:port][/db]#master} (or {@code rediss-sentinel://} for TLS),
 * {@code zookeeper://host:port[,host:port][/chroot]} (or {@code zk://}), {@code etcd://host:port[,host:port]}
 * (or {@code http://}, {@code https://}). Its {@link #toString()} hides the password.
 */
public final class BackendUri {
  private static final String FORMS = "redis://host:port, rediss://host:port,"
      + " redis-sentinel://host:port[,host:port]#master, zookeeper://host:port[,host:port][/chroot]"
      + " or etcd://host:port[,host:port]";

  private final String uri;
  private final String scheme;
  private final Backend backend;

  private BackendUri(String uri, String scheme, Backend backend) {
    this.uri = uri;
    this.scheme = scheme;
    this.backend = backend;
  }

  /**
   * Reads {@code uri}.
   *
   * @throws IllegalArgumentException if it is blank, not a URI, has nothing after the scheme or names an unknown store
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
    if (separator + 3 == trimmed.length()) {
      throw new IllegalArgumentException("The backend '" + Redaction.uri(trimmed) + "' names no server: use " + FORMS + ".");
    }
    String scheme = trimmed.substring(0, separator).toLowerCase(Locale.ROOT);
    Backend backend = switch (scheme) {
      case "redis", "rediss", "redis-sentinel", "rediss-sentinel" -> Backend.REDIS;
      case "zookeeper", "zk" -> Backend.ZOOKEEPER;
      case "etcd", "http", "https" -> Backend.ETCD;
      default -> throw new IllegalArgumentException("Unknown backend '" + Redaction.uri(trimmed) + "': use " + FORMS + ".");
    };
    return new BackendUri(trimmed, scheme, backend);
  }

  /** The store this URI names. */
  public Backend backend() {
    return backend;
  }

  /** The scheme as written, in lower case: {@code redis}, {@code rediss}, {@code redis-sentinel}, {@code zk}, ... */
  public String scheme() {
    return scheme;
  }

  /** Everything after {@code scheme://}: the servers, and the password, database, chroot or master name if given. */
  public String address() {
    return uri.substring(scheme.length() + 3);
  }

  /** The URI as given, password included: for connecting, never for showing. */
  public String value() {
    return uri;
  }

  /** Whether the URI carries a user info (a user, a password, or both). */
  public boolean hasCredentials() {
    return !withoutPassword(uri).equals(uri);
  }

  /** The URI with its password hidden ({@link Redaction#uri}), for logs and messages. */
  @Override
  public String toString() {
    return Redaction.uri(uri);
  }

  /**
   * Removes the password from the user info of {@code uri}, to hand a working URI on (as {@code baton exec} does
   * to its command) rather than to show it, which {@link Redaction#uri} is for: {@code redis://user:secret@host:6379} becomes
   * {@code redis://user@host:6379}, and {@code redis://:secret@host} or {@code redis://secret@host} (Redis
   * URIs read a lone user info as the password) become {@code redis://host}. Other URIs are returned as they are.
   */
  public static String withoutPassword(String uri) {
    int start = uri.indexOf("://");
    if (start < 0) {
      return uri;
    }
    start += 3;
    int end = start;
    while (end < uri.length() && "/?#".indexOf(uri.charAt(end)) < 0) {
      end++;
    }
    int at = uri.lastIndexOf('@', end - 1);
    if (at < start) {
      return uri;
    }
    String userInfo = uri.substring(start, at);
    int colon = userInfo.indexOf(':');
    String user = colon > 0 ? userInfo.substring(0, colon) + "@" : "";
    return uri.substring(0, start) + user + uri.substring(at + 1);
  }

  /** The stores a URI can name, with the module that talks to each. */
  public enum Backend {
    /** Redis, through {@code dev.baton:baton-redis}. */
    REDIS("baton-redis", "dev.baton.redis.RedisLockClient"),
    /** ZooKeeper, through {@code dev.baton:baton-zookeeper}. */
    ZOOKEEPER("baton-zookeeper", "dev.baton.zookeeper.ZooKeeperLockClient"),
    /** etcd, through {@code dev.baton:baton-etcd}. */
    ETCD("baton-etcd", "dev.baton.etcd.EtcdLockClient");

    private final String module;
    private final String entryPoint;

    Backend(String module, String entryPoint) {
      this.module = module;
      this.entryPoint = entryPoint;
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
