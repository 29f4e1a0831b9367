package dev.baton.redis;

import dev.baton.internal.Redaction;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StaticCredentialsProvider;
import java.util.ArrayList;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Redis a client locks on, as its URI names it: one server ({@code redis://}, {@code rediss://}), the master
 * that a set of sentinels names ({@code redis-sentinel://}, {@code rediss-sentinel://}), which Lettuce asks the
 * sentinels for at every connect and reconnect, or a cluster ({@code redis-cluster://}, {@code rediss-cluster://}),
 * whose slots Lettuce learns from its seed nodes. Its {@link #toString()} hides the password.
 */
final class RedisTarget {
  private static final Set<String> SERVER_SCHEMES = Set.of("redis", "rediss");
  private static final Set<String> SENTINEL_SCHEMES = Set.of("redis-sentinel", "rediss-sentinel");
  private static final Set<String> CLUSTER_SCHEMES = Set.of("redis-cluster", "rediss-cluster");
  private static final String SERVER_FORM = "redis://[:password@]host[:port][/database]";
  private static final String SENTINEL_FORM = "redis-sentinel://[:password@]host:port[,host:port...][/database]#master";
  private static final String CLUSTER_FORM = "redis-cluster://[:password@]host:port[,host:port...][?parameters]";

  /** Baton's own parameters, which Lettuce does not see. */
  private static final String MIN_REPLICAS = "min-replicas";
  private static final String REPLICA_WAIT = "replica-wait-ms";

  private final String uri;
  private final RedisURI parsed;
  /** A cluster's seed nodes, each as a server URI with the cluster URI's credentials and parameters; else empty. */
  private final List<String> seeds;
  /** The acknowledgement the URI asks for, if it names one. */
  private final ReplicaAcks acks;

  private RedisTarget(String uri, RedisURI parsed, List<String> seeds, ReplicaAcks acks) {
    this.uri = uri;
    this.parsed = parsed;
    this.seeds = seeds;
    this.acks = acks;
  }

  /**
   * Reads {@code uri}.
   *
   * @throws IllegalArgumentException if it is blank, has another scheme, is a sentinel URI that names no master, a
   *     cluster URI that names a database or a fragment, or is malformed; the message never shows the password
   */
  static RedisTarget parse(String uri) {
    if (uri == null || uri.isBlank()) {
      throw new IllegalArgumentException("The Redis URI must not be blank; use e.g. redis://127.0.0.1:6379.");
    }
    Map<String, String> own = new HashMap<>();
    RedisTarget target = parseWithoutOwnParameters(ownParametersRemoved(uri, own));
    return new RedisTarget(target.uri, target.parsed, target.seeds, acks(own, uri));
  }

  private static RedisTarget parseWithoutOwnParameters(String uri) {
    String scheme = uri.contains("://") ? uri.substring(0, uri.indexOf("://")).toLowerCase(Locale.ROOT) : "";
    boolean sentinel = SENTINEL_SCHEMES.contains(scheme);
    if (CLUSTER_SCHEMES.contains(scheme)) {
      return parseCluster(scheme + uri.substring(scheme.length()));
    }
    if (!sentinel && !SERVER_SCHEMES.contains(scheme)) {
      throw new IllegalArgumentException("The Redis URI '" + Redaction.uri(uri) + "' must start with redis://,"
          + " rediss://, redis-sentinel://, rediss-sentinel://, redis-cluster:// or rediss-cluster://, e.g."
          + " redis://127.0.0.1:6379/0, redis-sentinel://10.0.0.1:26379,10.0.0.2:26379#mymaster or"
          + " redis-cluster://10.0.0.1:6379,10.0.0.2:6379.");
    }
    if (sentinel && !namesMaster(uri)) {
      throw new IllegalArgumentException("The Redis Sentinel URI '" + Redaction.uri(uri) + "' names no master: add"
          + " #NAME, the name the sentinels monitor it by (their 'sentinel monitor NAME host port quorum'), e.g. "
          + scheme + "://10.0.0.1:26379,10.0.0.2:26379#mymaster.");
    }
    // Lettuce takes the scheme in lower case only; a URI's scheme is case-insensitive.
    String normalized = scheme + uri.substring(scheme.length());
    return new RedisTarget(normalized, read(normalized, uri, sentinel ? SENTINEL_FORM : SERVER_FORM), List.of(),
        null);
  }

  /**
   * A cluster URI: its seed nodes become server URIs, {@code redis://} or {@code rediss://}, each with the URI's user
   * information and parameters. A cluster has database 0 only, so the URI names none ({@code /0} aside).
   */
  private static RedisTarget parseCluster(String uri) {
    String scheme = uri.substring(0, uri.indexOf("://"));
    String rest = uri.substring(scheme.length() + 3);
    int authorityEnd = 0;
    while (authorityEnd < rest.length() && "/?#".indexOf(rest.charAt(authorityEnd)) < 0) {
      authorityEnd++;
    }
    String authority = rest.substring(0, authorityEnd);
    String tail = rest.substring(authorityEnd);
    int query = tail.indexOf('?');
    String path = query < 0 ? tail : tail.substring(0, query);
    if (tail.indexOf('#') >= 0 || !path.isEmpty() && !path.equals("/") && !path.equals("/0")) {
      throw new IllegalArgumentException("The Redis Cluster URI '" + Redaction.uri(uri) + "' names a database or a"
          + " fragment: a cluster has database 0 only and no master name. Use " + CLUSTER_FORM + ", e.g. " + scheme
          + "://10.0.0.1:6379,10.0.0.2:6379.");
    }
    int at = authority.lastIndexOf('@');
    String userInfo = at < 0 ? "" : authority.substring(0, at + 1);
    String hosts = authority.substring(at + 1);
    if (hosts.isEmpty() || Arrays.stream(hosts.split(",", -1)).anyMatch(String::isEmpty)) {
      throw new IllegalArgumentException("The Redis Cluster URI '" + Redaction.uri(uri) + "' names no seed node, or"
          + " an empty one: use " + CLUSTER_FORM + ", e.g. " + scheme + "://10.0.0.1:6379,10.0.0.2:6379.");
    }
    String serverScheme = scheme.equals("rediss-cluster") ? "rediss" : "redis";
    String parameters = query < 0 ? "" : tail.substring(query);
    List<String> seeds = Arrays.stream(hosts.split(","))
        .map(host -> serverScheme + "://" + userInfo + host + parameters)
        .toList();
    RedisURI first = null;
    for (String seed : seeds) {
      RedisURI parsed = read(seed, uri, CLUSTER_FORM);
      first = first == null ? parsed : first;
    }
    return new RedisTarget(uri, first, seeds, null);
  }

  /**
   * {@code uri} without Baton's own query parameters ({@value #MIN_REPLICAS}, {@value #REPLICA_WAIT}), which are put in
   * {@code own}; the query ends where a fragment (a Sentinel URI's {@code #master}) starts.
   */
  private static String ownParametersRemoved(String uri, Map<String, String> own) {
    int query = uri.indexOf('?');
    if (query < 0) {
      return uri;
    }
    int queryEnd = uri.indexOf('#', query) < 0 ? uri.length() : uri.indexOf('#', query);
    StringBuilder rest = new StringBuilder(uri.substring(0, query));
    char separator = '?';
    for (String parameter : uri.substring(query + 1, queryEnd).split("&")) {
      String name = parameter.contains("=") ? parameter.substring(0, parameter.indexOf('=')) : parameter;
      if (name.equals(MIN_REPLICAS) || name.equals(REPLICA_WAIT)) {
        own.put(name, parameter.substring(Math.min(parameter.length(), name.length() + 1)));
      } else if (!parameter.isEmpty()) {
        rest.append(separator).append(parameter);
        separator = '&';
      }
    }
    return rest.append(uri, queryEnd, uri.length()).toString();
  }

  /** The acknowledgement that {@code own} parameters ask for, or null if they name none. */
  private static ReplicaAcks acks(Map<String, String> own, String uri) {
    if (own.isEmpty()) {
      return null;
    }
    if (!own.containsKey(MIN_REPLICAS)) {
      throw new IllegalArgumentException("The Redis URI '" + Redaction.uri(uri) + "' has " + REPLICA_WAIT + " but no "
          + MIN_REPLICAS + ": add " + MIN_REPLICAS + "=N, the replicas that must acknowledge a grant.");
    }
    int replicas = number(own.get(MIN_REPLICAS), MIN_REPLICAS, uri);
    Duration within = own.containsKey(REPLICA_WAIT) ? Duration.ofMillis(number(own.get(REPLICA_WAIT), REPLICA_WAIT, uri))
        : ReplicaAcks.DEFAULT_WITHIN;
    return ReplicaAcks.of(replicas, within);
  }

  private static int number(String value, String name, String uri) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("The Redis URI '" + Redaction.uri(uri) + "' has " + name + "='" + value
          + "', which is not a whole number; e.g. " + MIN_REPLICAS + "=1&" + REPLICA_WAIT + "=500.");
    }
  }

  /** The replica acknowledgement the URI's {@code min-replicas} and {@code replica-wait-ms} ask for, if any. */
  Optional<ReplicaAcks> acks() {
    return Optional.ofNullable(acks);
  }

  /** {@code text} read by Lettuce; a failure names {@code shown}, password hidden, and the {@code form} to use. */
  private static RedisURI read(String text, String shown, String form) {
    try {
      return RedisURI.create(text);
    } catch (RuntimeException e) {
      // Neither the cause nor its message: both may quote the URI, password included.
      throw new IllegalArgumentException("The Redis URI '" + Redaction.uri(shown) + "' is malformed ("
          + Redaction.uri(String.valueOf(e.getMessage())) + "); use " + form + ".");
    }
  }

  /** Whether the URI names a cluster. */
  boolean isCluster() {
    return !seeds.isEmpty();
  }

  /** New Lettuce URIs of a cluster's seed nodes, with {@code password} (and {@code user}) when given. */
  List<RedisURI> seedUris(String user, String password) {
    List<RedisURI> uris = new ArrayList<>(seeds.size());
    for (String seed : seeds) {
      RedisURI connecting = RedisURI.create(seed);
      if (password != null) {
        connecting.setCredentialsProvider(new StaticCredentialsProvider(user, password.toCharArray()));
      }
      uris.add(connecting);
    }
    return uris;
  }

  /** A cluster as messages name it: {@code cluster of seeds host:port,host:port}. Never a password. */
  static String describe(List<RedisURI> seeds) {
    return "cluster of seeds " + seeds.stream().map(seed -> seed.getHost() + ":" + seed.getPort())
        .collect(Collectors.joining(","));
  }

  /** Whether a sentinel URI names its master: {@code #NAME}, or Lettuce's {@code sentinelMasterId=NAME} parameter. */
  private static boolean namesMaster(String uri) {
    int hash = uri.indexOf('#');
    return hash >= 0 && hash < uri.length() - 1 || uri.toLowerCase(Locale.ROOT).contains("sentinelmasterid=");
  }

  /** Whether the URI itself carries a password. */
  boolean carriesPassword() {
    return uriPassword(parsed) != null;
  }

  /**
   * A new Lettuce URI to connect with: with {@code password} (and {@code user}, if not null) for the data nodes
   * when given. The sentinels are sent the data nodes' password too, as their default user's (Lettuce's URI syntax
   * has no place for a password of their own): a sentinel without a password accepts any (Redis 6 and later), and
   * one with {@code requirepass} needs the same password as the data nodes.
   */
  RedisURI connectionUri(String user, String password) {
    RedisURI connecting = RedisURI.create(uri);
    if (password != null) {
      connecting.setCredentialsProvider(new StaticCredentialsProvider(user, password.toCharArray()));
    }
    char[] dataPassword = password != null ? password.toCharArray() : uriPassword(connecting);
    if (dataPassword != null) {
      for (RedisURI sentinel : connecting.getSentinels()) {
        sentinel.setCredentialsProvider(new StaticCredentialsProvider(null, dataPassword));
      }
    }
    return connecting;
  }

  /**
   * The password of a URI read from a string, or null. Such a URI holds its credentials as they were written: Lettuce
   * deprecates their getter in favour of a credentials provider, which it makes from them.
   */
  @SuppressWarnings("deprecation")
  private static char[] uriPassword(RedisURI uri) {
    return uri.getPassword();
  }

  /**
   * The server as messages name it: {@code host:port} of one server, or {@code master 'NAME' of sentinels
   * host:port,host:port}. Never a password.
   */
  static String describe(RedisURI uri) {
    if (uri.getSentinels().isEmpty()) {
      return uri.getHost() + ":" + uri.getPort();
    }
    return "master '" + uri.getSentinelMasterId() + "' of sentinels " + uri.getSentinels().stream()
        .map(sentinel -> sentinel.getHost() + ":" + sentinel.getPort())
        .collect(Collectors.joining(","));
  }

  /** What to check when connecting to {@code uri} failed for want of an answer. */
  static String connectAdvice(RedisURI uri) {
    return uri.getSentinels().isEmpty()
        ? "Check that redis-server runs there and that the URI's database is right."
        : "Check that the sentinels run there and monitor a master named '" + uri.getSentinelMasterId()
            + "' (SENTINEL GET-MASTER-ADDR-BY-NAME " + uri.getSentinelMasterId() + "), that it runs, and that the URI's"
            + " database is right.";
  }

  /** The URI with its password hidden. */
  @Override
  public String toString() {
    return Redaction.uri(uri);
  }
}
