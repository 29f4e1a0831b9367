package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockObserver;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.Primitive;
import dev.baton.spi.ClientFactory;
import dev.baton.testkit.RedisServerExtension;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The connections of {@link LazyBlockingApiClient} still have their blocking API, made when first asked for; and a lock
 * client on one server never asks its command connection for it, whatever it does with its locks.
 */
@Timeout(30)
class LazyBlockingApiClientTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  /** Short enough that the watchdog renews a holding within the test (every third of it). */
  private static final LockOptions SHORT_TTL = LockOptions.defaults().withTtl(Duration.ofMillis(300));
  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  private final ClientResources resources = DefaultClientResources.create();
  private final LazyBlockingApiClient client = new LazyBlockingApiClient(resources, RedisURI.create(redis.uri()));
  private final List<LockClient> lockClients = new ArrayList<>();

  @AfterEach
  void shutDown() {
    lockClients.forEach(LockClient::close);
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    resources.shutdown(0, 2, TimeUnit.SECONDS);
  }

  @Test
  void pubSubBlockingApiIsMadeOnFirstUseAndKept() {
    try (StatefulRedisPubSubConnection<String, String> subscriber = client.connectPubSub(StringCodec.UTF8);
        StatefulRedisConnection<String, String> observer = client.connect(StringCodec.UTF8)) {
      subscriber.sync().subscribe("lazy-api");
      assertThat(subscriber.sync()).isSameAs(subscriber.sync());
      assertThat(observer.sync().pubsubChannels("lazy-*")).containsExactly("lazy-api");
    }
  }

  @Test
  void commandBlockingApiIsMadeOnFirstUseAndKept() {
    try (StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8)) {
      LazyBlockingApiClient.CommandConnection<String, String> lazy =
          (LazyBlockingApiClient.CommandConnection<String, String>) connection;
      assertThat(lazy.madeBlockingApi()).as("made before it was asked for").isFalse();
      assertThat(connection.sync().set("lazy-command-api", "set")).isEqualTo("OK");
      assertThat(lazy.madeBlockingApi()).isTrue();
      assertThat(connection.sync()).isSameAs(connection.sync());
      assertThat(connection.sync().get("lazy-command-api")).isEqualTo("set");
    }
  }

  @Test
  void lockClientOnOneServerNeverMakesTheBlockingApiOfItsCommandConnection() throws Exception {
    RedisLink holderLink = link();
    RedisLink waiterLink = link();
    LockClient holder = lockClient(holderLink);
    LockClient waiter = lockClient(waiterLink);
    AtomicInteger renewals = new AtomicInteger();
    holder.observe(new LockObserver() {
      @Override
      public void renewed(Lease lease, Primitive primitive, boolean succeeded) {
        if (succeeded) {
          renewals.incrementAndGet();
        }
      }
    });

    Lease lease = holder.lock("lazy/held").acquire(TIMEOUT);
    await().atMost(PROMPTLY).until(() -> renewals.get() > 0);
    CompletableFuture<Lease> waiting = waiter.lock("lazy/held").acquireAsync();
    await().atMost(PROMPTLY).until(() -> holder.status("lazy/held").waiters() == 1);
    LockStatus status = holder.status("lazy/held");
    assertThat(status.ownerId()).contains(lease.ownerId());
    assertThat(holder.list("lazy/", 10)).extracting(LockStatus::key).containsExactly("lazy/held");
    lease.close();
    waiting.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS).close();
    assertThat(holder.status("lazy/held").isHeld()).isFalse();

    assertThat(madeBlockingApi(holderLink)).as("the holder's blocking API was made").isFalse();
    assertThat(madeBlockingApi(waiterLink)).as("the waiter's blocking API was made").isFalse();
  }

  private static RedisLink link() {
    return RedisLink.connect(RedisURI.create(redis.uri()), TIMEOUT, TIMEOUT, ReplicaAcks.NONE);
  }

  private LockClient lockClient(RedisLink link) {
    LockClient locks = ClientFactory.newClient(RedisBackend.connect(link,
        RedisKeys.untagged(RedisLockClient.DEFAULT_NAMESPACE), RedisLockClient.DEFAULT_YIELD_TIME), SHORT_TTL);
    lockClients.add(locks);
    return locks;
  }

  private static boolean madeBlockingApi(RedisLink link) {
    StatefulRedisConnection<String, String> connection =
        ((RedisAsyncCommands<String, String>) link.commands().async()).getStatefulConnection();
    return ((LazyBlockingApiClient.CommandConnection<String, String>) connection).madeBlockingApi();
  }
}
