package dev.baton.spring.boot;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The {@code spring.data.redis.*} properties read as Spring Boot reads them into its connection details, for an
 * application without Spring Data Redis: a URL wins over host and port, Sentinels over a cluster over one server.
 */
final class RedisPropertiesDetails implements RedisConnectionDetails {
  private final RedisProperties properties;
  private final URI url;

  private RedisPropertiesDetails(RedisProperties properties, URI url) {
    this.properties = properties;
    this.url = url;
  }

  /**
   * Reads the properties.
   *
   * @throws BatonStartupException naming {@code spring.data.redis.url}, if it is not a URL
   */
  static RedisPropertiesDetails of(Environment environment) {
    RedisProperties properties = Binder.get(environment).bind("spring.data.redis", RedisProperties.class)
        .orElseGet(RedisProperties::new);
    URI url = null;
    if (properties.getUrl() != null) {
      try {
        url = new URI(properties.getUrl().strip());
      } catch (URISyntaxException e) {
        throw new BatonStartupException("spring.data.redis.url", "'" + properties.getUrl().replaceAll("//[^@/]*@", "//***@")
            + "' is not a Redis URL: " + e.getReason() + ".", "Write it as redis://[user:password@]host:port[/db].", e);
      }
      if (url.getHost() == null) {
        throw new BatonStartupException("spring.data.redis.url", "'" + url.getScheme() + "://...' names no host.",
            "Write it as redis://[user:password@]host:port[/db].", null);
      }
    }
    return new RedisPropertiesDetails(properties, url);
  }

  @Override
  public String getUsername() {
    String[] userInfo = userInfo();
    return userInfo != null ? (userInfo[0].isEmpty() ? null : userInfo[0]) : properties.getUsername();
  }

  @Override
  public String getPassword() {
    String[] userInfo = userInfo();
    return userInfo != null ? (userInfo.length > 1 ? userInfo[1] : null) : properties.getPassword();
  }

  /** The URL's user and password, split at the first colon, or null where it has none. */
  private String[] userInfo() {
    return url == null || url.getUserInfo() == null ? null : url.getUserInfo().split(":", 2);
  }

  @Override
  public Standalone getStandalone() {
    if (url != null) {
      String path = url.getPath() == null ? "" : url.getPath().replaceFirst("^/", "");
      return Standalone.of(url.getHost(), url.getPort() < 0 ? 6379 : url.getPort(),
          path.isEmpty() ? 0 : Integer.parseInt(path));
    }
    return Standalone.of(properties.getHost(), properties.getPort(), properties.getDatabase());
  }

  @Override
  public Sentinel getSentinel() {
    RedisProperties.Sentinel sentinel = properties.getSentinel();
    if (sentinel == null) {
      return null;
    }
    List<Node> nodes = sentinel.getNodes() == null ? List.of() : sentinel.getNodes().stream().map(RedisPropertiesDetails::node).toList();
    int database = properties.getDatabase();
    return new Sentinel() {
      @Override
      public int getDatabase() {
        return database;
      }

      @Override
      public String getMaster() {
        return sentinel.getMaster();
      }

      @Override
      public List<Node> getNodes() {
        return nodes;
      }

      @Override
      public String getUsername() {
        return sentinel.getUsername();
      }

      @Override
      public String getPassword() {
        return sentinel.getPassword();
      }
    };
  }

  @Override
  public Cluster getCluster() {
    RedisProperties.Cluster cluster = properties.getCluster();
    if (cluster == null) {
      return null;
    }
    List<Node> nodes = cluster.getNodes() == null ? List.of() : cluster.getNodes().stream().map(RedisPropertiesDetails::node).toList();
    return () -> nodes;
  }

  private static Node node(String hostAndPort) {
    int colon = hostAndPort.lastIndexOf(':');
    if (colon < 0) {
      throw new BatonStartupException("spring.data.redis", "The Redis node '" + hostAndPort + "' has no port.",
          "Write each node of spring.data.redis.sentinel.nodes or spring.data.redis.cluster.nodes as host:port.", null);
    }
    String port = hostAndPort.substring(colon + 1).strip();
    try {
      return new Node(hostAndPort.substring(0, colon).strip(), Integer.parseInt(port));
    } catch (NumberFormatException e) {
      throw new BatonStartupException("spring.data.redis", "The Redis node '" + hostAndPort + "' has the port '" + port
          + "', which is not a number.", "Write each node of spring.data.redis.sentinel.nodes or"
          + " spring.data.redis.cluster.nodes as host:port.", e);
    }
  }
}
