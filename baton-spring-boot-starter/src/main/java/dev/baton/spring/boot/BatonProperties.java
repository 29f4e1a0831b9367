package dev.baton.spring.boot;

import dev.baton.LockOptions;
import dev.baton.connect.ConnectionSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The {@code baton.*} properties: which store, and the defaults of every lock taken from it. */
@ConfigurationProperties("baton")
public class BatonProperties {
  /** The value of {@code baton.backend} that names the application's own {@link javax.sql.DataSource}. */
  public static final String DATA_SOURCE = "datasource";

  /**
   * Whether the starter connects a client at all. False: no client and no check that a store is configured, for an
   * application started without its store; {@code @Locked} methods then fail when called, never run unlocked.
   */
  private boolean enabled = true;

  /**
   * The store to lock on: redis://[:password@]host:port[/db], rediss://..., the master of a Redis Sentinel set-up,
   * redis-sentinel://[:password@]host:port[,host:port][/db]#master (rediss-sentinel:// for TLS),
   * zookeeper://host:port[,host:port][/chroot], etcd://host:port[,host:port],
   * postgresql://user:password@host:port/db (or jdbc:postgresql://...), or datasource: the application's one
   * DataSource bean, a PostgreSQL database; or memory://[name], a store inside this JVM for the application's own
   * tests (docs/testing.md). A server's module (baton-redis, baton-zookeeper, baton-etcd or baton-postgres) must be
   * on the class path. Unset: the store the application configures for itself, in this order: Spring Boot's
   * Redis connection details or spring.data.redis.*, spring.cloud.zookeeper.connect-string or a CuratorFramework
   * bean, the one DataSource bean (each with its Baton module present).
   */
  private String backend;

  /**
   * The namespace every key is written under, such as "orders", so that the locks of one application are not
   * another's: Redis keys orders:lock:KEY, ZooKeeper paths /orders/KEY, etcd keys /orders/KEY, on PostgreSQL and
   * MySQL (where the table is the namespace) the lock table orders_locks. Unset: "baton" (there: baton_locks).
   */
  private String namespace;

  /** How long a crashed holder blocks the others; held locks are renewed every third of it. */
  private Duration ttl = Duration.ofSeconds(30);

  /** How long an acquire, and a @Locked method, waits for the lock by default; 0 tries once. Unset: without limit. */
  private Duration waitTime;

  /** The default hold timeout: a lock frees itself this long after it was granted. Unset: renewed while held. */
  private Duration holdTimeout;

  /**
   * Whether waiters get the lock in turn: in order of arrival within the application, and an instance that releases
   * a lock another instance waits for does not take it back first (LockOptions.fair says how each store keeps it).
   */
  private boolean fair = true;

  /** How long connecting may take (Redis, ZooKeeper). Unset: the backend's default. */
  private Duration connectTimeout;

  /** How long one call to the store may take (Redis, etcd). Unset: the backend's default. */
  private Duration commandTimeout;

  /**
   * How long the store keeps the locks of a client it no longer hears from: the ZooKeeper session timeout or the
   * ttl of the etcd client's lease (whole seconds, at least 3 s). Unset: the backend's default.
   */
  private Duration sessionTimeout;

  /**
   * The user to authenticate as: a ZooKeeper digest user (the lock nodes are then that user's only) or an etcd
   * user. Redis takes its user and password in baton.backend (redis://user:password@host:port).
   */
  private String username;

  /** The password of baton.username. */
  private String password;

  /** TLS files for etcd over https:// endpoints. */
  private final Tls tls = new Tls();

  /** Micrometer meters of the client and the baton.lock.skipped count, where Micrometer is present. */
  private final Metrics metrics = new Metrics();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public String getBackend() {
    return backend;
  }

  public void setBackend(String backend) {
    this.backend = backend;
  }

  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  public Duration getTtl() {
    return ttl;
  }

  public void setTtl(Duration ttl) {
    this.ttl = ttl;
  }

  public Duration getWaitTime() {
    return waitTime;
  }

  public void setWaitTime(Duration waitTime) {
    this.waitTime = waitTime;
  }

  public Duration getHoldTimeout() {
    return holdTimeout;
  }

  public void setHoldTimeout(Duration holdTimeout) {
    this.holdTimeout = holdTimeout;
  }

  public boolean isFair() {
    return fair;
  }

  public void setFair(boolean fair) {
    this.fair = fair;
  }

  public Duration getConnectTimeout() {
    return connectTimeout;
  }

  public void setConnectTimeout(Duration connectTimeout) {
    this.connectTimeout = connectTimeout;
  }

  public Duration getCommandTimeout() {
    return commandTimeout;
  }

  public void setCommandTimeout(Duration commandTimeout) {
    this.commandTimeout = commandTimeout;
  }

  public Duration getSessionTimeout() {
    return sessionTimeout;
  }

  public void setSessionTimeout(Duration sessionTimeout) {
    this.sessionTimeout = sessionTimeout;
  }

  public Metrics getMetrics() {
    return metrics;
  }

  public String getUsername() {
    return username;
  }

  public void setUsername(String username) {
    this.username = username;
  }

  public String getPassword() {
    return password;
  }

  public void setPassword(String password) {
    this.password = password;
  }

  public Tls getTls() {
    return tls;
  }

  /**
   * The connection these properties describe.
   *
   * @throws IllegalArgumentException naming the property, if a value is not acceptable
   */
  ConnectionSettings toConnectionSettings() {
    if (namesDataSource()) {
      throw new BatonStartupException("baton.backend", DATA_SOURCE + " locks on the application's DataSource,"
          + " which needs dev.baton:baton-postgres on the class path and exactly one DataSource bean.",
          "Add dev.baton:baton-postgres and one DataSource (Spring Boot makes one from spring.datasource.url with"
          + " spring-boot-starter-jdbc), or set baton.backend to a store's URI.", null);
    }
    ConnectionSettings.Builder builder = checked("baton.backend", () -> ConnectionSettings.builder(backend));
    checked("baton.username", () -> builder.credentials(username, password));
    return withSettings(builder);
  }

  /**
   * The connection to {@code store}, one the application configures for itself, with its credentials where it has
   * some, else {@code baton.username} and {@code baton.password}.
   *
   * @throws BatonStartupException naming the property, if a value is not acceptable
   */
  ConnectionSettings toConnectionSettings(ApplicationStore store) {
    ConnectionSettings.Builder builder = checked(store.property(), () -> ConnectionSettings.builder(store.uri()));
    if (store.password() != null) {
      checked(store.property(), () -> builder.credentials(store.user(), store.password()));
    } else {
      checked("baton.username", () -> builder.credentials(username, password));
    }
    return withSettings(builder);
  }

  private ConnectionSettings withSettings(ConnectionSettings.Builder builder) {
    builder.defaultOptions(lockOptions());
    checked("baton.namespace", () -> builder.namespace(namespace));
    checked("baton.connect-timeout", () -> builder.connectTimeout(connectTimeout));
    checked("baton.command-timeout", () -> builder.commandTimeout(commandTimeout));
    checked("baton.session-timeout", () -> builder.sessionTimeout(sessionTimeout));
    checked("baton.tls", () -> builder.tls(tls.getTrustedCa(), tls.getClientCertificate(), tls.getClientKey()));
    return builder.build();
  }

  /** Whether {@code baton.backend} is {@value #DATA_SOURCE}: the application's DataSource. */
  boolean namesDataSource() {
    return backend != null && backend.strip().equalsIgnoreCase(DATA_SOURCE);
  }

  /** The default options of the client's locks. */
  LockOptions lockOptions() {
    LockOptions.Builder options = LockOptions.builder().fair(fair);
    checked("baton.ttl", () -> options.ttl(ttl));
    checked("baton.wait-time", () -> options.waitTime(waitTime));
    checked("baton.hold-timeout", () -> options.holdTimeout(holdTimeout));
    return options.build();
  }

  /**
   * Applies one property's value.
   *
   * @throws BatonStartupException naming the property, if the value is refused
   */
  static <T> T checked(String property, Supplier<T> setting) {
    try {
      return setting.get();
    } catch (IllegalArgumentException e) {
      throw new BatonStartupException(property, e.getMessage(), "Change " + property + " as said above.", e);
    }
  }

  /** The {@code baton.metrics.*} properties. */
  public static class Metrics {
    /** Whether to meter the client's locks and count the skipped runs of @Locked methods (baton.lock.skipped). */
    private boolean enabled = true;

    /** Whether to tag meters with the lock's key: one time series per key, so only for few keys. */
    private boolean keyTag;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public boolean isKeyTag() {
      return keyTag;
    }

    public void setKeyTag(boolean keyTag) {
      this.keyTag = keyTag;
    }
  }

  /** TLS files for etcd over https:// endpoints. */
  public static class Tls {
    /** The PEM certificate of the authority that signed the etcd members' certificates. Unset: the JVM's authorities. */
    private Path trustedCa;

    /** The client's PEM certificate, for members run with --client-cert-auth. */
    private Path clientCertificate;

    /** The PKCS#8 PEM private key of baton.tls.client-certificate. */
    private Path clientKey;

    public Path getTrustedCa() {
      return trustedCa;
    }

    public void setTrustedCa(Path trustedCa) {
      this.trustedCa = trustedCa;
    }

    public Path getClientCertificate() {
      return clientCertificate;
    }

    public void setClientCertificate(Path clientCertificate) {
      this.clientCertificate = clientCertificate;
    }

    public Path getClientKey() {
      return clientKey;
    }

    public void setClientKey(Path clientKey) {
      this.clientKey = clientKey;
    }
  }
}
