package dev.baton.zookeeper;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.internal.Redaction;
import dev.baton.internal.Settings;
import dev.baton.spi.ClientFactory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;

/**
 * Locks on a ZooKeeper ensemble, with the official client and one session per lock client.
 *
 * <pre>{@code
 * try (LockClient client = ZooKeeperLockClient.connect("127.0.0.1:2181,127.0.0.1:2182/myapp")) {
 *   try (Lease lease = client.lock("orders/42").acquire(Duration.ofSeconds(5))) {
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>Key {@code orders/42} is the path {@code /baton/orders/42}. Every acquire queues an ephemeral sequential
 * node there, and the lowest holds, so fair and non-fair acquires of one key exclude each other whatever each
 * caller chose. A fair waiter (the default) keeps its place in line and watches only its predecessor; a
 * non-fair waiter ({@code fair(false)}) keeps none: it removes its node, watches the holder, and races for the
 * lock again when the holder goes. Locks live
 * as long as the session: a holder that crashes frees its locks when its session times out, so the
 * session timeout, not the ttl, is how long a crashed holder blocks the others, and a lease counts as held
 * no longer than the session timeout after the client last heard from the ensemble. The fencing token is
 * the lock node's creation zxid (an entry that holds beside others, a read lock's or a permit's, takes the zxid of a
 * write made when it is granted, so that tokens grow in the order of the grants).
 *
 * <p>A fleet moving from Curator one instance at a time: {@link Builder#compat(Compat) compat(Compat.CURATOR)} makes
 * key {@code K} the path {@code /K} (under the chroot), where Curator's {@code new InterProcessMutex(client, "/K")}
 * queues its nodes of the same form, so that each side waits for the other's holder and is woken by its release.
 */
public final class ZooKeeperLockClient {
  /** Which other library's locks a client's locks exclude, on the same names. */
  public enum Compat {
    /** Baton's own locks only. */
    NONE,
    /**
     * Apache Curator's {@code InterProcessMutex} (and so Spring Integration's {@code ZookeeperLockRegistry}): key
     * {@code K} is the path {@code /K} unless a {@link Builder#namespace namespace} is given. Curator orders a queue
     * by the sequence after {@code lock-} in each node's name, and has no read or permit nodes: this client takes
     * fair exclusive entries only (locks, write locks, leadership), and refuses a non-fair acquire, a read lock and
     * a semaphore at once, rather than let Curator misorder them.
     */
    CURATOR
  }

  /** The namespace unless told otherwise: where lock paths start. */
  public static final String DEFAULT_NAMESPACE = "/baton";
  /**
   * The session timeout unless told otherwise: how long the server keeps a silent client's locks (a server may grant
   * less, up to its {@code maxSessionTimeout}).
   */
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(30);
  /** The shortest session timeout the builder takes: a shorter one could not even connect. */
  public static final Duration MIN_SESSION_TIMEOUT = Duration.ofMillis(100);

  private ZooKeeperLockClient() {}

  /**
   * Connects to {@code host:port[,host:port...][/chroot]} with the default settings.
   *
   * @throws IllegalArgumentException if the connect string is malformed
   * @throws dev.baton.BackendUnavailableException if no server answers
   */
  public static LockClient connect(String connectString) {
    return builder().connectString(connectString).connect();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Settings of a ZooKeeper lock client; every setter checks its value at once. */
  public static final class Builder {
    private String connectString;
    private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private String digest;
    private List<ACL> acl = ZooDefs.Ids.OPEN_ACL_UNSAFE;
    private String namespace;
    private Compat compat = Compat.NONE;
    private LockOptions defaultOptions = LockOptions.defaults();

    private Builder() {}

    /** The ensemble: {@code host:port[,host:port...][/chroot]}; the chroot is created if missing. */
    public Builder connectString(String connectString) {
      if (connectString == null || connectString.isBlank() || connectString.contains("://")) {
        throw new IllegalArgumentException("The ZooKeeper connect string must look like host:port[,host:port][/chroot],"
            + " e.g. 127.0.0.1:2181, but was '" + Redaction.uri(connectString) + "'.");
      }
      int chroot = connectString.indexOf('/');
      if (connectString.substring(0, chroot < 0 ? connectString.length() : chroot).contains("@")) {
        throw new IllegalArgumentException("The ZooKeeper connect string '" + Redaction.uri(connectString) + "' carries"
            + " a user: give the user and password with credentials(user, password) instead.");
      }
      this.connectString = connectString;
      return this;
    }

    /**
     * How long the ensemble keeps the session of a client it no longer hears from, so how long a crashed
     * holder blocks the others; 30 s by default, at least 100 ms. The server may grant a different one, within its
     * limits.
     */
    public Builder sessionTimeout(Duration sessionTimeout) {
      this.sessionTimeout = Settings.inRange("sessionTimeout", sessionTimeout, MIN_SESSION_TIMEOUT,
          "ZooKeeper servers grant from two to twenty ticks (4 s to 40 s with the usual 2 s tick); 30 s is the default.");
      return this;
    }

    /**
     * How long connecting may take, a server that accepts the connection but never answers included; 10 s by
     * default. Then {@link #connect()} fails, with nothing left running.
     */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = Settings.positive("connectTimeout", connectTimeout);
      return this;
    }

    /**
     * Authenticates as {@code user} with ZooKeeper's digest scheme and makes every node this client creates readable and
     * writable by that user only.
     */
    public Builder credentials(String user, String password) {
      if (user == null || user.isBlank() || user.contains(":") || password == null) {
        throw new IllegalArgumentException("ZooKeeper credentials need a user without ':' and a password; the user was '" + user + "'.");
      }
      this.digest = user + ":" + password;
      this.acl = aclList(List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", user + ":" + hash(digest)))));
      return this;
    }

    /** The ACL of every node this client creates; open by default, the digest user's with {@link #credentials}. */
    public Builder acl(List<ACL> acl) {
      if (acl == null || acl.isEmpty()) {
        throw new IllegalArgumentException("The ACL must name at least one permission, e.g. ZooDefs.Ids.OPEN_ACL_UNSAFE.");
      }
      this.acl = aclList(acl);
      return this;
    }

    /**
     * The namespace: the path under which lock paths start, so that the locks of one application are not another's;
     * {@code /baton} by default, the root ({@code /}) with
     * {@link Compat#CURATOR}. Clients that should exclude each other must agree on it.
     */
    public Builder namespace(String namespace) {
      this.namespace = ZkPaths.checkPath("namespace", namespace);
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

    /** The options of handles from {@link LockClient#lock(String)}. */
    public Builder defaultOptions(LockOptions defaultOptions) {
      this.defaultOptions = Settings.defaultOptions(defaultOptions);
      return this;
    }

    /**
     * Connects.
     *
     * @throws IllegalStateException if no connect string was given
     * @throws dev.baton.BackendUnavailableException if no server answered; nothing is left running
     */
    public LockClient connect() {
      if (connectString == null) {
        throw new IllegalStateException("Set the connect string first, e.g. builder().connectString(\"127.0.0.1:2181\").");
      }
      String lockBase = namespace != null ? namespace : compat == Compat.CURATOR ? ZkPaths.ROOT : DEFAULT_NAMESPACE;
      ZooKeeperSettings settings = new ZooKeeperSettings(connectString, sessionTimeout, connectTimeout, digest, acl,
          lockBase, compat);
      Chroot.ensureExists(settings);
      return ClientFactory.newClient(ZooKeeperBackend.connect(settings), defaultOptions);
    }

    /** A copy the ZooKeeper client can check: it asks the list whether it contains null, which List.of refuses. */
    private static List<ACL> aclList(List<ACL> acl) {
      return Collections.unmodifiableList(new ArrayList<>(acl));
    }


    /** ZooKeeper's digest id: base64 of the SHA-1 of {@code user:password}. */
    private static String hash(String userAndPassword) {
      try {
        byte[] sha = MessageDigest.getInstance("SHA-1").digest(userAndPassword.getBytes(StandardCharsets.UTF_8));
        return Base64.getEncoder().encodeToString(sha);
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("The JVM has no SHA-1, which ZooKeeper digest auth needs", e);
      }
    }
  }
}
