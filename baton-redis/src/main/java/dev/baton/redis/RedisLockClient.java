package dev.baton.redis;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.internal.Settings;
import dev.baton.spi.ClientFactory;
import dev.baton.spi.LockBackend;
import io.lettuce.core.RedisURI;
import java.time.Duration;

/**
 * Locks on a Redis server, on the master of a Redis Sentinel set-up, or on a Redis cluster.
 *
 * <pre>{@code
 * try (LockClient client = RedisLockClient.connect("redis://:secret@127.0.0.1:6379/0")) {
 *   try (Lease lease = client.lock("orders/42").acquire(Duration.ofSeconds(5))) {
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>A lock is a hash {@code baton:lock:KEY} holding its owner id and fencing token, with a Redis expiry;
 * acquire, release and renewal are Lua scripts of one round trip each; waiters are woken by a message on
 * {@code baton:wake:KEY}, published only when someone waits. Within a process waiters queue in order. Across
 * processes, with the {@code fair} option (the default), a release that another client waited for yields it
 * the next turn: for a moment ({@link Builder#yieldTime}) the lock is refused to the releasing client, whose next
 * thread would otherwise race the woken waiter; waiters of several other clients race among themselves. Without
 * it, every waiter races.
 *
 * <p>Safety: a single Redis server that restarts without persistence forgets its locks, and an
 * asynchronous replica that is promoted may not have the latest ones: a holder whose entry did not survive learns
 * it at its next renewal ({@link dev.baton.LostReason#ENTRY_REMOVED}), and meanwhile another client may take the
 * lock. Fencing tokens keep growing across both (they are floored at the server's clock), so a resource that checks
 * them stays safe. {@link Builder#minReplicas} makes a grant count only once replicas have it, so that a failover to
 * one of them keeps it.
 *
 * <p>On a cluster ({@code redis-cluster://}) every name of a lock carries its key as the hash tag,
 * {@code baton:{KEY}:lock} and so on, so that each script touches one slot; wake-ups are sharded pub/sub (Redis 7).
 * Each master replicates asynchronously, as a Sentinel master does: after a failover the promoted replica may lack
 * the latest holdings, and their holders learn it at their next renewal.
 *
 * <p>A key that is released and that no one waits for leaves nothing at the server one ttl after its release: the
 * fencing counter too expires, once the server's clock has passed its last token by a ttl.
 *
 * <p>A fleet moving from Redisson one instance at a time: {@link Builder#compat(Compat) compat(Compat.REDISSON)} makes
 * key {@code K} the hash {@code K} that Redisson's {@code getLock("K")} and {@code getFencedLock("K")} take, so that
 * each side waits for the other's holder and is woken by its release.
 */
public final class RedisLockClient {
  /** Which other library's locks a client's locks exclude, on the same names. */
  public enum Compat {
    /** Baton's own locks only. */
    NONE,
    /**
     * Redisson's {@code RLock} and {@code RFencedLock}: key {@code K} is the hash {@code K} (under no prefix unless
     * {@link Builder#namespace namespace} is given), its holder the field named by the owner id; releases publish Redisson's
     * unlock message on {@code redisson_lock__channel:{K}}, where waiters listen; fencing tokens are increments of
     * RFencedLock's counter {@code redisson_lock_token:{K}}, which, as Redisson leaves it, has no expiry. The client
     * takes locks, write locks and leadership only (Redisson's read-write locks and semaphores have other layouts),
     * and refuses a read lock and a semaphore at once. Across clients waiters race, as Redisson's do: there is no
     * {@link Builder#yieldTime yield}. On one server or through Sentinel only: a cluster URI with it is refused.
     */
    REDISSON
  }

  /** The namespace unless told otherwise: the prefix of every key Baton writes. */
  public static final String DEFAULT_NAMESPACE = "baton:";

  /**
   * How long a fair release that another client waited for keeps the lock from the releasing client, unless told
   * otherwise: long enough for a woken waiter to ask on a busy machine on one network.
   */
  public static final Duration DEFAULT_YIELD_TIME = Duration.ofMillis(20);

  private static final Duration MAX_YIELD_TIME = Duration.ofMinutes(1);

  private RedisLockClient() {}

  /**
   * Connects to {@code redis://[:password@]host[:port][/database]}, {@code rediss://...},
   * {@code redis-sentinel://[:password@]host[:port][,host[:port]...][/database]#master},
   * {@code rediss-sentinel://...}, {@code redis-cluster://[:password@]host:port[,host:port...]} or
   * {@code rediss-cluster://...} with the default settings; see {@link Builder#uri}.
   *
   * @throws IllegalArgumentException if the URI is malformed
   * @throws dev.baton.BackendUnavailableException if the server cannot be reached
   */
  public static LockClient connect(String uri) {
    return builder().uri(uri).connect();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Settings of a Redis lock client; every setter checks its value at once. */
  public static final class Builder {
    private RedisTarget target;
    private String namespace;
    private Compat compat = Compat.NONE;
    private LockOptions defaultOptions = LockOptions.defaults();
    private Duration commandTimeout = Duration.ofSeconds(2);
    private Duration connectTimeout = Duration.ofSeconds(2);
    private Duration yieldTime = DEFAULT_YIELD_TIME;
    private String user;
    private String password;
    private ReplicaAcks acks;

    private Builder() {}

    /**
     * The server: {@code redis://[:password@]host[:port][/database]}, or {@code rediss://} for TLS; or the master
     * that sentinels name: {@code redis-sentinel://[:password@]host[:port][,host[:port]...][/database]#master}, or
     * {@code rediss-sentinel://} for TLS to the sentinels and the master. The master is asked of the sentinels at
     * every connect and reconnect, so the client follows a failover once its connections to the old master end
     * (Sentinel ends them when it turns the old master into a replica). The password, in the URI or from
     * {@link #credentials}, is the data nodes'; the sentinels are sent it too (a sentinel without a password of its
     * own accepts it). Or a cluster: {@code redis-cluster://[:password@]host:port[,host:port...][?parameters]}, or
     * {@code rediss-cluster://} for TLS, with some of its nodes as seeds; the client learns the slots from them,
     * follows MOVED and ASK redirections, and reads the slots again after a redirection, a lost node, and every
     * few seconds, so that it follows a failover. A cluster has database 0 only.
     */
    public Builder uri(String uri) {
      this.target = RedisTarget.parse(uri);
      return this;
    }

    /**
     * Authenticates with {@code password}: as the default user ({@code user} null, for {@code requirepass}), or
     * as the ACL user {@code user} (Redis 6 or later). Instead of credentials in the URI, which show wherever the
     * URI does (a process list, a log); not both.
     */
    public Builder credentials(String user, String password) {
      if (password == null || password.isEmpty() || user != null && user.isBlank()) {
        throw new IllegalArgumentException("Redis credentials need a password, and a user name if a user is given;"
            + " the user was '" + user + "'.");
      }
      this.user = user;
      this.password = password;
      return this;
    }

    /**
     * The namespace, so that the locks of one application are not another's: the prefix of every key and channel
     * Baton writes; {@code baton:} by default, none with {@link Compat#REDISSON} (where it is the start of Redisson's
     * lock name). A {@code :} is added if it does not end with one, so that no lock of one namespace is a lock of
     * another. On a cluster it may hold no brace: the hash tag of a lock's names is
     * its key.
     */
    public Builder namespace(String namespace) {
      this.namespace = Settings.prefix("The namespace", namespace, ':', "baton:");
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

    /** How long one command may take before the server counts as unreachable; 2 s by default. */
    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = Settings.positive("commandTimeout", commandTimeout);
      return this;
    }

    /** How long connecting may take; 2 s by default. */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = Settings.positive("connectTimeout", connectTimeout);
      return this;
    }

    /**
     * How long a fair release that a waiter of another client waited for keeps the lock from this client, so that
     * the woken waiter takes it instead of racing this process's next thread for it (which, on a hot key, decides
     * which process gets the next turns); whoever takes the lock ends the yield. 20 ms by default; longer where
     * waiters take longer to wake and ask (a slow network, long pauses), zero to let the releasing client race
     * them. If the waiter gave up meanwhile, the lock stays free that long.
     *
     * @param yieldTime zero, or from 1 ms to 1 min
     */
    public Builder yieldTime(Duration yieldTime) {
      boolean inRange = yieldTime != null && (yieldTime.isZero()
          || yieldTime.compareTo(Duration.ofMillis(1)) >= 0 && yieldTime.compareTo(MAX_YIELD_TIME) <= 0);
      if (!inRange) {
        throw new IllegalArgumentException("yieldTime must be zero or from 1 ms to " + MAX_YIELD_TIME.toSeconds()
            + " s but was " + yieldTime + "; use Duration.ZERO to yield nothing.");
      }
      this.yieldTime = yieldTime;
      return this;
    }

    /**
     * Counts a grant, and each renewal, only once {@code replicas} replicas of the master have it, as Redis's
     * {@code WAIT} reports within {@code within}: so that a failover that promotes one of them keeps the holding,
     * where an asynchronous replica may not have it yet. A grant that too few acknowledge in time is given back at
     * once and asked for again within the acquire's wait time (an acquire without one fails with a
     * {@link dev.baton.BackendUnavailableException} naming the replicas); a renewal that too few acknowledge counts as
     * failed, and a holding whose renewals keep failing is lost when its ttl runs out. The writes that give and extend
     * holdings go on a connection of their own, since {@code WAIT} blocks the connection it is sent on; each costs a
     * round trip more. Off (0) by default; a URI may ask for it too: {@code ?min-replicas=1&replica-wait-ms=500}.
     *
     * <p>What it buys is bounded: a replica that acknowledged may still not be the one promoted (Sentinel and a cluster
     * prefer the most up-to-date replica, which is one that acknowledged when all others lag), and Redis persists
     * nothing on acknowledgement. A fenced resource stays the guarantee; this narrows how often it is needed.
     *
     * @param replicas from 0 (no acknowledgement) to 16
     * @param within from 1 ms to 1 min: how long each write waits for its replicas
     */
    public Builder minReplicas(int replicas, Duration within) {
      this.acks = ReplicaAcks.of(replicas, within);
      return this;
    }

    /**
     * Connects.
     *
     * @throws IllegalStateException if no URI was given, credentials both in the URI and beside it, a cluster URI
     *     with {@link Compat#REDISSON}, or a URI's {@code min-replicas} that {@link #minReplicas} contradicts
     * @throws IllegalArgumentException if the URI names a cluster and the namespace holds a brace
     * @throws dev.baton.BackendUnavailableException if the server cannot be reached; nothing is left running
     */
    public LockClient connect() {
      if (target == null) {
        throw new IllegalStateException("Set the Redis URI first, e.g. builder().uri(\"redis://127.0.0.1:6379\").");
      }
      if (password != null && target.carriesPassword()) {
        throw new IllegalStateException("The Redis URI '" + target + "' carries a password and credentials() gave"
            + " one too: give it one way.");
      }
      String prefix = namespace != null ? namespace : DEFAULT_NAMESPACE;
      if (acks != null && target.acks().isPresent() && !acks.equals(target.acks().get())) {
        throw new IllegalStateException("The Redis URI '" + target + "' asks for min-replicas=" + target.acks().get()
            .replicas() + " and minReplicas() for " + acks.replicas() + ": give it one way.");
      }
      ReplicaAcks replicaAcks = acks != null ? acks : target.acks().orElse(ReplicaAcks.NONE);
      if (target.isCluster()) {
        if (compat == Compat.REDISSON) {
          throw new IllegalStateException("The Redis URI '" + target + "' names a cluster, where compat=REDISSON is not"
              + " offered: Redisson's lock layout is used on one server or through Sentinel only. Drop the compat"
              + " setting to lock in Baton's own layout on the cluster.");
        }
        RedisKeys keys = RedisKeys.tagged(prefix);
        RedisLink link =
            RedisLink.connectCluster(target.seedUris(user, password), commandTimeout, connectTimeout, replicaAcks);
        return ClientFactory.newClient(RedisBackend.connect(link, keys, yieldTime), defaultOptions);
      }
      RedisURI uri = target.connectionUri(user, password);
      LockBackend backend = compat == Compat.REDISSON
          ? RedissonBackend.connect(uri, namespace != null ? namespace : "", commandTimeout, connectTimeout,
              replicaAcks)
          : RedisBackend.connect(uri, prefix, commandTimeout, connectTimeout, yieldTime, replicaAcks);
      return ClientFactory.newClient(backend, defaultOptions);
    }
  }
}
