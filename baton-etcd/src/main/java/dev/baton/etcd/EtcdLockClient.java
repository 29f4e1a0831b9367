package dev.baton.etcd;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.internal.Redaction;
import dev.baton.internal.Settings;
import dev.baton.spi.ClientFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Locks on an etcd cluster, through jetcd's KV, Lease and Watch services (not etcd's own Lock service, so
 * that every engine feature holds as on the other backends).
 *
 * <pre>{@code
 * try (LockClient client = EtcdLockClient.connect("http://127.0.0.1:2379,http://127.0.0.1:22379")) {
 *   try (Lease lease = client.lock("orders/42").acquire(Duration.ofSeconds(5))) {
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>Each client grants one etcd lease on connect and keeps it alive with one stream for all its locks.
 * An acquire puts {@code /baton/KEY<NUL>LEASE} bound to that lease in a transaction that, in the same
 * round trip, reads the key's oldest entry: the entry with the lowest create revision holds, and each
 * waiter watches the deletion of the entry just before its own. The fencing token is the entry's create
 * revision. A client that dies frees its locks when its lease expires, after the session timeout (the lease's ttl); a lease that
 * etcd no longer has is reported as every lock of the client lost.
 *
 * <p>A fleet moving from etcd's own lock one instance at a time: {@link Builder#compat(Compat) compat(Compat.ETCD)}
 * names the entry of key {@code K} {@code K/LEASE}, as {@code etcdctl lock K}, Go's {@code concurrency.NewMutex} and
 * etcd's lock service (jetcd's {@code Lock}) name theirs, so that each side waits for the other's holder (the lowest
 * create revision under {@code K/}) and is woken by its release.
 */
public final class EtcdLockClient {
  /** Which other library's locks a client's locks exclude, on the same names. */
  public enum Compat {
    /** Baton's own locks only. */
    NONE,
    /**
     * etcd's own lock: {@code etcdctl lock}, Go's {@code concurrency.Mutex} and the lock service. Key {@code K}'s entry
     * is {@code K/LEASE} under no namespace unless one is given; the client takes locks, write locks and leadership
     * only (etcd's lock has no read or permit entries, and would count them as holders in line), and refuses a key
     * with a lock nested under it ({@code K/sub}), whose entries etcd's lock counts in {@code K}'s queue.
     */
    ETCD
  }

  /** The prefix of every key Baton writes, unless told otherwise. */
  public static final String DEFAULT_NAMESPACE = "/baton/";
  /** The session timeout unless told otherwise: the ttl of the client's lease, which its locks go with. */
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);

  private EtcdLockClient() {}

  /**
   * Connects to {@code http://host:port[,http://host:port...]} (or {@code etcd://host:port,...}) with the default
   * settings.
   *
   * @throws IllegalArgumentException if an endpoint is malformed
   * @throws dev.baton.BackendUnavailableException if no member answers
   */
  public static LockClient connect(String endpoints) {
    return builder().endpoints(endpoints).connect();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Settings of an etcd lock client; every setter checks its value at once. */
  public static final class Builder {
    private List<URI> endpoints;
    private String user;
    private String password;
    private String namespace;
    private Compat compat = Compat.NONE;
    private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
    private Duration commandTimeout = Duration.ofSeconds(5);
    private LockOptions defaultOptions = LockOptions.defaults();
    private Path trustedCa;
    private Path clientCertificate;
    private Path clientKey;

    private Builder() {}

    /**
     * The members: {@code http://host:port[,http://host:port...]}; {@code etcd://} is read as {@code http://};
     * {@code https://} endpoints are reached over TLS (all of them or none).
     */
    public Builder endpoints(String endpoints) {
      if (endpoints == null || endpoints.isBlank()) {
        throw new IllegalArgumentException("The etcd endpoints must not be blank; use e.g. http://127.0.0.1:2379.");
      }
      List<URI> parsed = Arrays.stream(endpoints.split(",")).map(String::trim).map(Builder::endpoint).toList();
      if (parsed.stream().map(URI::getScheme).distinct().count() > 1) {
        throw new IllegalArgumentException("The etcd endpoints '" + Redaction.uri(endpoints) + "' mix http:// and"
            + " https://; reach every member the same way.");
      }
      this.endpoints = parsed;
      return this;
    }

    /**
     * Trusts the members whose certificates this authority signed (a PEM file), for {@code https://} endpoints;
     * without it, the JVM's default authorities are trusted.
     */
    public Builder trustedCa(Path caCertificate) {
      this.trustedCa = readable("trustedCa", caCertificate);
      return this;
    }

    /**
     * Shows this certificate (PEM) to members that ask clients for one (etcd's {@code --client-cert-auth}),
     * proving it with its private key (PKCS#8 PEM, {@code -----BEGIN PRIVATE KEY-----}).
     */
    public Builder clientCertificate(Path certificate, Path privateKey) {
      this.clientCertificate = readable("clientCertificate", certificate);
      this.clientKey = readable("clientKey", privateKey);
      return this;
    }

    /** Authenticates as this etcd user. */
    public Builder credentials(String user, String password) {
      if (user == null || user.isBlank() || password == null) {
        throw new IllegalArgumentException("An etcd user needs a name and a password; the name was '" + user + "'.");
      }
      this.user = user;
      this.password = password;
      return this;
    }

    /**
     * The namespace, so that the locks of one application are not another's: the prefix of every key Baton writes;
     * {@code /baton/} by default, none with {@link Compat#ETCD}. A {@code /} is added if it does not end with one, so
     * that no lock of one namespace is a lock of another ({@code /ns} and key {@code 2/k} would
     * otherwise be {@code /ns2/} and {@code k}).
     */
    public Builder namespace(String namespace) {
      this.namespace = Settings.prefix("The namespace", namespace, '/', DEFAULT_NAMESPACE);
      return this;
    }

    /** Whose locks this client's locks exclude besides Baton's: {@link Compat#NONE} by default. */
    public Builder compat(Compat compat) {
      if (compat == null) {
        throw new IllegalArgumentException("The compatibility mode must not be null; use Compat.NONE for none.");
      }
      this.compat = compat;
      return this;
    }

    /**
     * How long etcd keeps the locks of a client it no longer hears from, so how long a crashed holder blocks the
     * others (as ZooKeeper's session timeout): the ttl of the client's etcd lease, which every lock entry of the
     * client is bound to. 10 s by default, whole seconds, at least 3 s (a held lock counts as held for a third of it
     * after each renewal).
     */
    public Builder sessionTimeout(Duration sessionTimeout) {
      Settings.positive("sessionTimeout", sessionTimeout);
      if (sessionTimeout.toMillis() % 1000 != 0 || sessionTimeout.toSeconds() < 3) {
        throw new IllegalArgumentException("sessionTimeout must be whole seconds (etcd leases count in seconds), at least"
            + " 3 s, but was " + sessionTimeout + ".");
      }
      this.sessionTimeout = sessionTimeout;
      return this;
    }

    /** How long one call may take before the cluster counts as unreachable; 5 s by default. */
    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = Settings.positive("commandTimeout", commandTimeout);
      return this;
    }

    /** The options of handles from {@link LockClient#lock(String)}. */
    public Builder defaultOptions(LockOptions defaultOptions) {
      this.defaultOptions = Settings.defaultOptions(defaultOptions);
      return this;
    }

    /**
     * Connects and grants the client's lease.
     *
     * @throws IllegalStateException if no endpoints were given
     * @throws dev.baton.BackendUnavailableException if no member answered; nothing is left running
     */
    public LockClient connect() {
      if (endpoints == null) {
        throw new IllegalStateException("Set the endpoints first, e.g. builder().endpoints(\"http://127.0.0.1:2379\").");
      }
      String prefix = namespace != null ? namespace : compat == Compat.ETCD ? "" : DEFAULT_NAMESPACE;
      EtcdSettings settings = new EtcdSettings(endpoints, user, password, prefix, sessionTimeout, commandTimeout,
          trustedCa, clientCertificate, clientKey, compat == Compat.ETCD);
      if (!settings.tls() && (trustedCa != null || clientCertificate != null)) {
        throw new IllegalStateException("TLS files were given but the endpoints " + Redaction.uri(endpoints.toString())
            + " are http://; use https:// endpoints to reach etcd over TLS.");
      }
      return ClientFactory.newClient(EtcdBackend.connect(settings), defaultOptions);
    }

    private static Path readable(String name, Path file) {
      if (file == null || !Files.isReadable(file) || Files.isDirectory(file)) {
        throw new IllegalArgumentException(name + " must be a readable PEM file, but " + file
            + " is not; check the path and its permissions.");
      }
      return file;
    }

    private static URI endpoint(String text) {
      String lower = text.toLowerCase(Locale.ROOT);
      String http = lower.startsWith("etcd://") ? "http://" + text.substring("etcd://".length()) : text;
      URI uri;
      try {
        uri = URI.create(http);
      } catch (IllegalArgumentException e) {
        // Not the cause: its message quotes the endpoint, password included.
        throw new IllegalArgumentException("The etcd endpoint '" + Redaction.uri(text) + "' is malformed; use"
            + " http://host:port.");
      }
      if (uri.getRawUserInfo() != null) {
        throw new IllegalArgumentException("The etcd endpoint '" + Redaction.uri(text) + "' carries a user: give the"
            + " user and password with user(name, password) instead.");
      }
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null || uri.getPort() < 0) {
        throw new IllegalArgumentException("The etcd endpoint '" + Redaction.uri(text)
            + "' must look like http://host:port.");
      }
      return uri;
    }
  }
}
