package dev.baton.bench.suite;

import dev.baton.embedded.EmbeddedZooKeeper;
import dev.baton.servers.EtcdServer;
import dev.baton.servers.MariaDbServer;
import dev.baton.servers.PostgresServer;
import dev.baton.servers.RedisClusterSet;
import dev.baton.servers.RedisServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.zookeeper.Version;

/**
 * The servers of a run, started by the test kit on free loopback ports: {@code redis-server}, {@code etcd},
 * PostgreSQL and MariaDB processes, ZooKeeper inside this JVM, and a Redis Cluster of six {@code redis-server}
 * processes (three masters with a replica each). {@link #close()} stops the ones it started.
 */
final class Servers implements AutoCloseable {
  private static final Pattern REDIS_VERSION = Pattern.compile("redis_version:(\\S+)");
  private static final Pattern ETCD_VERSION = Pattern.compile("\"etcdserver\":\"([^\"]+)\"");

  private final RedisServer redis = new RedisServer();
  private final EmbeddedZooKeeper zooKeeper = new EmbeddedZooKeeper();
  private final EtcdServer etcd = new EtcdServer();
  private final PostgresServer postgres = new PostgresServer();
  private final RedisClusterSet redisCluster = new RedisClusterSet();
  private final MariaDbServer mariaDb = new MariaDbServer();

  /** Starts them all; if one fails, the others are stopped. */
  static Servers start() {
    Servers servers = new Servers();
    try {
      servers.redis.start();
      servers.zooKeeper.start();
      servers.etcd.start();
      servers.postgres.start();
      servers.redisCluster.start();
      servers.mariaDb.start();
      return servers;
    } catch (RuntimeException e) {
      servers.close();
      throw e;
    }
  }

  Endpoints endpoints() {
    return new Endpoints(redis.uri(), zooKeeper.connectString(), etcd.endpoint(), postgres.uri(),
        redisCluster.uri(), mariaDb.uri());
  }

  /** Which of the cluster's masters serves each of {@code keys} now: the keys by the master's port. */
  Map<Integer, List<String>> keysByClusterMaster(List<String> keys) {
    return keys.stream().collect(Collectors.groupingBy(key -> redisCluster.masterOf(key).port(), TreeMap::new,
        Collectors.toList()));
  }

  /** The servers' own versions, as they report them. */
  String redisVersion() {
    Matcher matcher = REDIS_VERSION.matcher(String.valueOf(redis.command("INFO", "server")));
    return matcher.find() ? matcher.group(1) : "unknown";
  }

  String zooKeeperVersion() {
    return Version.getFullVersion();
  }

  String etcdVersion() throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(etcd.endpoint() + "/version"))
        .timeout(Duration.ofSeconds(5)).build();
    String body = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();
    Matcher matcher = ETCD_VERSION.matcher(body);
    return matcher.find() ? matcher.group(1) : "unknown";
  }

  String postgresVersion() throws SQLException {
    return databaseVersion(postgres.uri());
  }

  String mariaDbVersion() throws SQLException {
    return databaseVersion(mariaDb.uri());
  }

  private static String databaseVersion(String uri) throws SQLException {
    try (Connection connection = JdbcTarget.of(uri).connect()) {
      return connection.getMetaData().getDatabaseProductVersion();
    }
  }

  @Override
  public void close() {
    mariaDb.stop();
    redisCluster.close();
    postgres.stop();
    etcd.close();
    zooKeeper.close();
    redis.stop();
  }
}
