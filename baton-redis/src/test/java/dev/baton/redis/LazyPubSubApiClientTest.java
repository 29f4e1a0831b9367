package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.RedisServerExtension;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The pub/sub connections of {@link LazyPubSubApiClient} still have their blocking API, made when first asked for. */
@Timeout(30)
class LazyPubSubApiClientTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  private final ClientResources resources = DefaultClientResources.create();
  private final LazyPubSubApiClient client = new LazyPubSubApiClient(resources, RedisURI.create(redis.uri()));

  @AfterEach
  void shutDown() {
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    resources.shutdown(0, 2, TimeUnit.SECONDS);
  }

  @Test
  void blockingApiIsMadeOnFirstUseAndKept() {
    try (StatefulRedisPubSubConnection<String, String> subscriber = client.connectPubSub(StringCodec.UTF8);
        StatefulRedisConnection<String, String> observer = client.connect(StringCodec.UTF8)) {
      subscriber.sync().subscribe("lazy-api");
      assertThat(subscriber.sync()).isSameAs(subscriber.sync());
      assertThat(observer.sync().pubsubChannels("lazy-*")).containsExactly("lazy-api");
    }
  }
}
