package dev.baton.bench.suite;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * The raw limit of Redis for a lock cycle: two {@code EVALSHA} round trips from Lettuce on one shared connection,
 * set-if-absent with an expiry, then compare-and-delete. Nothing waits: each thread must have a key of its own. On a
 * cluster the connection is Lettuce's cluster connection, which sends each script to the master of its key's slot
 * (it loads the scripts on every master).
 */
final class RawRedisContender implements Contender {
  private static final String SCRIPTS = "/dev/baton/bench/";
  private static final String EXPIRY_MILLIS = "30000";

  private final AbstractRedisClient client;
  private final StatefulConnection<String, String> connection;
  private final RedisScriptingCommands<String, String> commands;
  private final String acquire;
  private final String release;

  private RawRedisContender(AbstractRedisClient client, StatefulConnection<String, String> connection,
      RedisScriptingCommands<String, String> commands) {
    this.client = client;
    this.connection = connection;
    this.commands = commands;
    acquire = commands.scriptLoad(script("raw-acquire.lua"));
    release = commands.scriptLoad(script("raw-release.lua"));
  }

  /** A connection to the server at {@code redisUri}. */
  static RawRedisContender oneServer(String redisUri) {
    RedisClient client = RedisClient.create(redisUri);
    StatefulRedisConnection<String, String> connection = client.connect();
    return new RawRedisContender(client, connection, connection.sync());
  }

  /** A cluster connection, with the cluster's nodes ({@code HOST:PORT} each) as its seeds. */
  static RawRedisContender cluster(List<String> nodes) {
    RedisClusterClient client = RedisClusterClient.create(
        nodes.stream().map(node -> RedisURI.create("redis://" + node)).toList());
    StatefulRedisClusterConnection<String, String> connection = client.connect();
    return new RawRedisContender(client, connection, connection.sync());
  }

  @Override
  public Locker locker(String key, Hold hold) {
    if (hold != Hold.LOCK) {
      throw hold.unsupportedBy(this);
    }
    // The key is the hash tag, so that on a cluster it lands in the slot of Baton's and Redisson's names for the key.
    String[] keys = {"raw:{" + key + "}"};
    String owner = UUID.randomUUID().toString();
    return new Locker() {
      @Override
      public void lock() {
        if (commands.evalsha(acquire, ScriptOutputType.STATUS, keys, owner, EXPIRY_MILLIS) == null) {
          throw new IllegalStateException(keys[0] + " is taken: the raw limit needs a key per thread.");
        }
      }

      @Override
      public void unlock() {
        commands.evalsha(release, ScriptOutputType.INTEGER, keys, owner);
      }
    };
  }

  @Override
  public void close() {
    connection.close();
    client.shutdown();
  }

  private static String script(String name) {
    try (InputStream in = RawRedisContender.class.getResourceAsStream(SCRIPTS + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
