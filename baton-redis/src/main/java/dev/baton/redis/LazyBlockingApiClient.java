package dev.baton.redis;

import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.json.JsonParser;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.pubsub.PubSubEndpoint;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnectionImpl;
import io.lettuce.core.pubsub.api.sync.RedisPubSubCommands;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * A Lettuce client of one server (or of the master sentinels name) whose connections, for commands and for pub/sub,
 * make their blocking API when it is first asked for, not when the connection is made. Lettuce's blocking API is a
 * dynamic proxy of {@link RedisCommands} (or {@link RedisPubSubCommands}), and the JDK generates the class of that
 * proxy, from the interface's hundreds of methods, in every process that makes one: about a tenth of the start of
 * {@code baton exec} each, for an API that Baton does without (it waits on the asynchronous one, see
 * {@link AwaitedCommands}, and the wake-up channels subscribe through it).
 */
final class LazyBlockingApiClient extends RedisClient {
  LazyBlockingApiClient(ClientResources resources, RedisURI uri) {
    super(resources, uri);
  }

  @Override
  protected <K, V> StatefulRedisConnectionImpl<K, V> newStatefulRedisConnection(RedisChannelWriter channelWriter,
      PushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout) {
    // As RedisClient makes its command connections: with the JSON parser its options name.
    return new CommandConnection<>(channelWriter, pushHandler, codec, timeout, getOptions().getJsonParser());
  }

  @Override
  protected <K, V> StatefulRedisPubSubConnectionImpl<K, V> newStatefulRedisPubSubConnection(
      PubSubEndpoint<K, V> endpoint, RedisChannelWriter channelWriter, RedisCodec<K, V> codec, Duration timeout) {
    return new PubSubConnection<>(endpoint, channelWriter, codec, timeout);
  }

  /** A command connection that makes its blocking API on the first call of {@link #sync()}. */
  static final class CommandConnection<K, V> extends StatefulRedisConnectionImpl<K, V> {
    private final MadeOnFirstUse<RedisCommands<K, V>> blocking = new MadeOnFirstUse<>(super::newRedisSyncCommandsImpl);

    private CommandConnection(RedisChannelWriter writer, PushHandler pushHandler, RedisCodec<K, V> codec,
        Duration timeout, Supplier<JsonParser> parser) {
      super(writer, pushHandler, codec, timeout, parser);
    }

    /** Called by Lettuce's constructor, which stores what it returns; {@link #sync()} makes the API instead. */
    @Override
    protected RedisCommands<K, V> newRedisSyncCommandsImpl() {
      return null;
    }

    @Override
    public RedisCommands<K, V> sync() {
      return blocking.get();
    }

    /** Whether {@link #sync()} was called, which made the blocking API. */
    boolean madeBlockingApi() {
      return blocking.isMade();
    }
  }

  /** A pub/sub connection that makes its blocking API on the first call of {@link #sync()}. */
  private static final class PubSubConnection<K, V> extends StatefulRedisPubSubConnectionImpl<K, V> {
    private final MadeOnFirstUse<RedisPubSubCommands<K, V>> blocking =
        new MadeOnFirstUse<>(super::newRedisSyncCommandsImpl);

    PubSubConnection(PubSubEndpoint<K, V> endpoint, RedisChannelWriter writer, RedisCodec<K, V> codec,
        Duration timeout) {
      super(endpoint, writer, codec, timeout);
    }

    /** Called by Lettuce's constructor, which stores what it returns; {@link #sync()} makes the API instead. */
    @Override
    protected RedisPubSubCommands<K, V> newRedisSyncCommandsImpl() {
      return null;
    }

    @Override
    public RedisPubSubCommands<K, V> sync() {
      return blocking.get();
    }
  }

  /** An API made by {@code make} when first asked for, then kept. */
  private static final class MadeOnFirstUse<T> {
    private final Supplier<T> make;
    private T made;

    MadeOnFirstUse(Supplier<T> make) {
      this.make = make;
    }

    synchronized T get() {
      if (made == null) {
        made = make.get();
      }
      return made;
    }

    synchronized boolean isMade() {
      return made != null;
    }
  }
}
