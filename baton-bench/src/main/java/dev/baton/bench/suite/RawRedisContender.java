package dev.baton.bench.suite;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The raw limit of Redis for a lock cycle: two {@code EVALSHA} round trips from Lettuce on one shared connection,
 * set-if-absent with an expiry, then compare-and-delete. Nothing waits: each thread must have a key of its own.
 */
final class RawRedisContender implements Contender {
  private static final String SCRIPTS = "/dev/baton/bench/";
  private static final String EXPIRY_MILLIS = "30000";

  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;
  private final RedisCommands<String, String> commands;
  private final String acquire;
  private final String release;

  RawRedisContender(String redisUri) {
    client = RedisClient.create(redisUri);
    connection = client.connect();
    commands = connection.sync();
    acquire = commands.scriptLoad(script("raw-acquire.lua"));
    release = commands.scriptLoad(script("raw-release.lua"));
  }

  @Override
  public Locker locker(String key, Hold hold) {
    if (hold != Hold.MUTEX) {
      throw hold.unsupportedBy(this);
    }
    String[] keys = {"raw:" + key};
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
