package dev.baton.connect;

import dev.baton.LockOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How to connect a {@link dev.baton.LockClient}: the backend URI and the settings every store understands in its
 * own way. Immutable; build with {@link #builder(String)}. Settings left unset keep the backend's defaults.
 *
 * <ul>
 *   <li>{@code namespace}: the name all keys are written under, so that the locks of one application are not
 *       another's: Redis keys {@code NAME:lock:KEY}, ZooKeeper paths {@code /NAME/KEY}, etcd keys {@code /NAME/KEY},
 *       on PostgreSQL and MySQL (where the table is the namespace) the lock table {@code NAME_locks}; {@code baton} by
 *       default.
 *   <li>{@code connectTimeout}: how long connecting may take (Redis, ZooKeeper).
 *   <li>{@code commandTimeout}: how long one call may take (Redis, etcd).
 *   <li>{@code sessionTimeout}: how long the store keeps the locks of a client it no longer hears from: the
 *       ZooKeeper session timeout, the ttl of the etcd client's lease (whole seconds, at least 3 s). On Redis the lock's ttl
 *       ({@link LockOptions#ttl()}) decides.
 * </ul>
 *
 * <p>{@code memory://}, a store inside this JVM, takes the default options and the namespace, and ignores the
 * timeouts, the credentials and the TLS files: it has no server to reach.
 */
public final class ConnectionSettings {
  private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*");

  private final BackendUri uri;
  private final LockOptions defaultOptions;
  private final String namespace;
  private final Duration connectTimeout;
  private final Duration commandTimeout;
  private final Duration sessionTimeout;
  private final String user;
  private final String password;
  private final Path trustedCa;
  private final Path clientCertificate;
  private final Path clientKey;

  private ConnectionSettings(Builder b) {
    this.uri = b.uri;
    this.defaultOptions = b.defaultOptions;
    this.namespace = b.namespace;
    this.connectTimeout = b.connectTimeout;
    this.commandTimeout = b.commandTimeout;
    this.sessionTimeout = b.sessionTimeout;
    this.user = b.user;
    this.password = b.password;
    this.trustedCa = b.trustedCa;
    this.clientCertificate = b.clientCertificate;
    this.clientKey = b.clientKey;
  }

  /**
   * Settings for the backend {@code uri}, with every other setting at its default.
   *
   * @throws IllegalArgumentException if the URI is missing, malformed or names an unknown store
   */
  public static Builder builder(String uri) {
    return new Builder(BackendUri.parse(uri));
  }

  public BackendUri uri() {
    return uri;
  }

  /** The options of handles from {@link dev.baton.LockClient#lock(String)}. */
  public LockOptions defaultOptions() {
    return defaultOptions;
  }

  public Optional<String> namespace() {
    return Optional.ofNullable(namespace);
  }

  public Optional<Duration> connectTimeout() {
    return Optional.ofNullable(connectTimeout);
  }

  public Optional<Duration> commandTimeout() {
    return Optional.ofNullable(commandTimeout);
  }

  /** The user to authenticate as (ZooKeeper digest, etcd user, Redis ACL user), if any. */
  public Optional<String> user() {
    return Optional.ofNullable(user);
  }

  /** The password of {@link #user()}, or on Redis of the default user if no user is given. */
  public Optional<String> password() {
    return Optional.ofNullable(password);
  }

  /** The PEM certificate of the authority that signed the servers' certificates (etcd over https), if any. */
  public Optional<Path> trustedCa() {
    return Optional.ofNullable(trustedCa);
  }

  /** The client's PEM certificate, for servers that ask for one (etcd over https), if any. */
  public Optional<Path> clientCertificate() {
    return Optional.ofNullable(clientCertificate);
  }

  /** The PKCS#8 PEM private key of {@link #clientCertificate()}. */
  public Optional<Path> clientKey() {
    return Optional.ofNullable(clientKey);
  }

  public Optional<Duration> sessionTimeout() {
    return Optional.ofNullable(sessionTimeout);
  }

  @Override
  public String toString() {
    return "ConnectionSettings{uri=" + uri + ", defaultOptions=" + defaultOptions + ", namespace=" + namespace
        + ", connectTimeout=" + connectTimeout + ", commandTimeout=" + commandTimeout
        + ", sessionTimeout=" + sessionTimeout + '}';
  }

  /** Builds {@link ConnectionSettings}; every setter checks its value at once. */
  public static final class Builder {
    private final BackendUri uri;
    private LockOptions defaultOptions = LockOptions.defaults();
    private String namespace;
    private Duration connectTimeout;
    private Duration commandTimeout;
    private Duration sessionTimeout;
    private String user;
    private String password;
    private Path trustedCa;
    private Path clientCertificate;
    private Path clientKey;

    private Builder(BackendUri uri) {
      this.uri = uri;
    }

    /** The options of handles from {@link dev.baton.LockClient#lock(String)}. */
    public Builder defaultOptions(LockOptions defaultOptions) {
      if (defaultOptions == null) {
        throw new IllegalArgumentException("The default options must not be null; use LockOptions.defaults().");
      }
      this.defaultOptions = defaultOptions;
      return this;
    }

    /** The name all keys are written under, such as {@code orders} or {@code team/orders}; null keeps {@code baton}. */
    public Builder namespace(String namespace) {
      if (namespace != null && !NAMESPACE.matcher(namespace).matches()) {
        throw new IllegalArgumentException("The namespace must be words of letters, digits, '.', '_' or '-' joined by"
            + " '/', such as \"orders\" or \"team/orders\", but was '" + namespace + "'.");
      }
      this.namespace = namespace;
      return this;
    }

    /** How long connecting may take; null keeps the backend's default. */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = positiveOrNull("connectTimeout", connectTimeout);
      return this;
    }

    /** How long one call may take; null keeps the backend's default. */
    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = positiveOrNull("commandTimeout", commandTimeout);
      return this;
    }

    /** How long the store keeps the locks of a client it no longer hears from; null keeps the backend's default. */
    public Builder sessionTimeout(Duration sessionTimeout) {
      this.sessionTimeout = positiveOrNull("sessionTimeout", sessionTimeout);
      return this;
    }

    /**
     * Authenticates with {@code password}: as a ZooKeeper digest user or an etcd user, who must be named; on Redis
     * as the ACL user {@code user}, or with {@code user} null as the default user ({@code requirepass}). Redis also
     * reads credentials in its URI ({@code redis://[user]:password@host:port}), which show wherever the URI does;
     * not both. Both null for none. {@code memory://} ignores them.
     */
    public Builder credentials(String user, String password) {
      if (user == null && password == null) {
        this.user = null;
        this.password = null;
        return this;
      }
      if (password == null || password.isEmpty() || user != null && user.isBlank()) {
        throw new IllegalArgumentException("Credentials need a password, and a name for the user if one is given;"
            + " the user was '" + user + "', for " + uri + ".");
      }
      if (user == null && uri.backend() != BackendUri.Backend.REDIS && uri.backend() != BackendUri.Backend.MEMORY) {
        throw new IllegalArgumentException("A password was given without a user for " + uri + ": "
            + (uri.backend() == BackendUri.Backend.ZOOKEEPER ? "ZooKeeper's digest auth" : "etcd")
            + " needs a user with it.");
      }
      if (uri.hasCredentials()) {
        throw new IllegalArgumentException("The backend URI " + uri + " carries credentials and credentials were"
            + " given beside it too: give it one way, preferably beside the URI, which shows wherever it does.");
      }
      this.user = user;
      this.password = password;
      return this;
    }

    /**
     * TLS files for etcd over {@code https://}: the authority that signed the members' certificates (null: the
     * JVM's), and the client's certificate and PKCS#8 key for members that ask for one (both null: none).
     * {@code memory://} ignores them.
     */
    public Builder tls(Path trustedCa, Path clientCertificate, Path clientKey) {
      if ((trustedCa != null || clientCertificate != null || clientKey != null) && uri.backend() != BackendUri.Backend.ETCD
          && uri.backend() != BackendUri.Backend.MEMORY) {
        throw new IllegalArgumentException("TLS files apply to etcd over https://; for Redis use rediss:// with the"
            + " JVM's trust store. They were given for " + uri + ".");
      }
      if ((clientCertificate == null) != (clientKey == null)) {
        throw new IllegalArgumentException("A client certificate needs its private key and the key its certificate;"
            + " only one of them was given (" + (clientCertificate != null ? clientCertificate : clientKey) + ").");
      }
      this.trustedCa = trustedCa;
      this.clientCertificate = clientCertificate;
      this.clientKey = clientKey;
      return this;
    }

    public ConnectionSettings build() {
      return new ConnectionSettings(this);
    }

    private static Duration positiveOrNull(String name, Duration value) {
      if (value != null && (value.isNegative() || value.isZero())) {
        throw new IllegalArgumentException(name + " must be a positive duration but was " + value
            + "; leave it unset for the backend's default.");
      }
      return value;
    }
  }
}
