package dev.baton.spring.boot;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails.Node;
import org.springframework.core.env.Environment;

/**
 * The Redis an application configures for Spring Data Redis, as a Baton store: a standalone server, the master of
 * Sentinels or a cluster, its database, its user and password, and TLS, from Spring Boot's
 * {@link RedisConnectionDetails} (made from {@code spring.data.redis.*} or by a service connection) or, without one,
 * from the {@code spring.data.redis.*} properties.
 */
final class RedisStores {
  static final String PROPERTIES = "spring.data.redis.*";

  private RedisStores() {}

  /** The store of Spring Boot's connection details; TLS where they carry an SSL bundle or the properties ask for it. */
  static ApplicationStore of(RedisConnectionDetails details, Environment environment) {
    return of(details, usesTls(environment), "Spring Boot's RedisConnectionDetails (" + PROPERTIES
        + " or a service connection)");
  }

  /** The store of the {@code spring.data.redis.*} properties, where Spring Boot made no connection details. */
  static ApplicationStore ofProperties(Environment environment) {
    return of(RedisPropertiesDetails.of(environment), usesTls(environment), PROPERTIES);
  }

  private static ApplicationStore of(RedisConnectionDetails details, boolean tls, String chosenBy) {
    String user = details.getUsername();
    String password = details.getPassword();
    String uri;
    if (details.getSentinel() != null) {
      RedisConnectionDetails.Sentinel sentinel = details.getSentinel();
      boolean secure = tls || sentinel.getSslBundle() != null;
      uri = (secure ? "rediss" : "redis") + "-sentinel://" + nodes(sentinel.getNodes()) + database(sentinel.getDatabase())
          + "#" + sentinel.getMaster();
    } else if (details.getCluster() != null) {
      boolean secure = tls || details.getCluster().getSslBundle() != null;
      uri = (secure ? "rediss" : "redis") + "-cluster://" + nodes(details.getCluster().getNodes());
    } else {
      RedisConnectionDetails.Standalone standalone = details.getStandalone();
      boolean secure = tls || standalone.getSslBundle() != null;
      uri = (secure ? "rediss" : "redis") + "://" + address(standalone.getHost(), standalone.getPort())
          + database(standalone.getDatabase());
    }
    return new ApplicationStore(uri, password == null ? null : user, password, PROPERTIES, chosenBy);
  }

  /** Whether {@code spring.data.redis.ssl.enabled} is true or {@code spring.data.redis.url} is a rediss:// one. */
  private static boolean usesTls(Environment environment) {
    String url = environment.getProperty("spring.data.redis.url");
    return environment.getProperty("spring.data.redis.ssl.enabled", Boolean.class, false)
        || url != null && url.strip().toLowerCase(Locale.ROOT).startsWith("rediss:");
  }

  private static String nodes(List<Node> nodes) {
    return nodes.stream().map(node -> address(node.host(), node.port())).collect(Collectors.joining(","));
  }

  static String address(String host, int port) {
    return (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
  }

  private static String database(int database) {
    return database == 0 ? "" : "/" + database;
  }
}
