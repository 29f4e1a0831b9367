package dev.baton.redis;

import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.pubsub.PubSubEndpoint;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnectionImpl;
import io.lettuce.core.pubsub.api.sync.RedisPubSubCommands;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;

/**
 * A Lettuce client of one server (or of the master sentinels name) whose pub/sub connections make their blocking API
 * when it is first asked for, not when the connection is made. Lettuce's blocking API is a dynamic proxy of
 * {@link RedisPubSubCommands}, and the JDK generates the class of that proxy, from the interface's hundreds of
 * methods, in every process that makes one: about a tenth of the start of {@code baton exec}, for an API that the
 * wake-up channels never use (they subscribe through the asynchronous one).
 */
final class LazyPubSubApiClient extends RedisClient {
  LazyPubSubApiClient(ClientResources resources, RedisURI uri) {
    super(resources, uri);
  }

  @Override
  protected <K, V> StatefulRedisPubSubConnectionImpl<K, V> newStatefulRedisPubSubConnection(
      PubSubEndpoint<K, V> endpoint, RedisChannelWriter channelWriter, RedisCodec<K, V> codec, Duration timeout) {
    return new Connection<>(endpoint, channelWriter, codec, timeout);
  }

  /** A pub/sub connection that makes its blocking API on the first call of {@link #sync()}. */
  private static final class Connection<K, V> extends StatefulRedisPubSubConnectionImpl<K, V> {
    private RedisPubSubCommands<K, V> blocking;

    Connection(PubSubEndpoint<K, V> endpoint, RedisChannelWriter writer, RedisCodec<K, V> codec, Duration timeout) {
      super(endpoint, writer, codec, timeout);
    }

    /** Called by Lettuce's constructor, which stores what it returns; {@link #sync()} makes the API instead. */
    @Override
    protected RedisPubSubCommands<K, V> newRedisSyncCommandsImpl() {
      return null;
    }

    @Override
    public synchronized RedisPubSubCommands<K, V> sync() {
      if (blocking == null) {
        blocking = super.newRedisSyncCommandsImpl();
      }
      return blocking;
    }
  }
}
