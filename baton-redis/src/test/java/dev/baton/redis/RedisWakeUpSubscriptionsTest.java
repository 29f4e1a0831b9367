package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.embedded.internal.Loopback;
import dev.baton.servers.ProxiedTarget;
import dev.baton.servers.TcpProxy;
import dev.baton.spi.ClientFactory;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.RedisServerExtension;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A waiter's subscription to its key's wake-up channel ends with its wait, however the wait ends: granted,
 * granted too late, timed out, interrupted, the client closed or crashed, or given up while the connection was
 * down. Neither the server nor the client keeps a channel for a key no one waits for.
 */
@Timeout(60)
class RedisWakeUpSubscriptionsTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  /** Holders that never expire during a test: a waiter is woken by the release, or not at all. */
  private static final LockOptions LONG_TTL = LockOptions.defaults().withTtl(Duration.ofSeconds(60));
  private static final Duration PROMPTLY = Duration.ofSeconds(5);

  private final List<LockClient> clients = new ArrayList<>();

  /** A client and its backend, whose wake-up channels the test looks into. */
  private record Client(LockClient locks, RedisBackend backend) {}

  @AfterEach
  void closeClients() {
    clients.forEach(LockClient::close);
  }

  private Client connect(String uri, LockOptions defaults) {
    RedisBackend backend = RedisBackend.connect(RedisURI.create(uri), RedisLockClient.DEFAULT_NAMESPACE,
        Duration.ofSeconds(2), Duration.ofSeconds(2), RedisLockClient.DEFAULT_YIELD_TIME,
        ReplicaAcks.NONE);
    LockClient locks = ClientFactory.newClient(backend, defaults);
    clients.add(locks);
    return new Client(locks, backend);
  }

  private Client connect() {
    return connect(redis.uri(), LONG_TTL);
  }

  @Test
  void twoClientsWaitingForEachOtherOnManyKeysLeaveNoSubscriptionOnceGranted() throws Exception {
    Client first = connect();
    Client second = connect();
    for (int i = 0; i < 100; i++) {
      Client holder = i % 2 == 0 ? first : second;
      Client waiter = i % 2 == 0 ? second : first;
      String key = "granted-" + i;
      Lease held = holder.locks().lock(key).acquire();
      CompletableFuture<Lease> waiting = waiter.locks().lock(key).acquireAsync();
      awaitWaitingFlag(key);
      held.close();
      waiting.get(10, TimeUnit.SECONDS).close();
    }

    assertNoSubscriptions(first, second);
  }

  @Test
  void waitersThatTimeOutOrAreInterruptedLeaveNoSubscription() throws Exception {
    Client holder = connect();
    Client waiter = connect();
    for (int i = 0; i < 5; i++) {
      String key = "timed-out-" + i;
      try (Lease held = holder.locks().lock(key).acquire()) {
        BackgroundCall<Lease> waiting = BackgroundCall.start("impatient-" + i,
            () -> waiter.locks().lock(key).acquire(Duration.ofMillis(300)));
        awaitWaitingFlag(key);
        assertThat(waiting.failure(PROMPTLY)).isInstanceOf(LockTimeoutException.class);
      }
    }
    for (int i = 0; i < 5; i++) {
      String key = "interrupted-" + i;
      try (Lease held = holder.locks().lock(key).acquire()) {
        BackgroundCall<Lease> waiting = BackgroundCall.start("interrupted-" + i, () -> waiter.locks().lock(key).acquire());
        awaitWaitingFlag(key);
        waiting.interrupt();
        assertThat(waiting.failure(PROMPTLY)).isInstanceOf(InterruptedException.class);
      }
    }

    assertNoSubscriptions(holder, waiter);
  }

  @Test
  void aClientClosedWhileItsThreadsWaitKeepsNoChannelEvenCutOffTheServer() throws Exception {
    Client holder = connect();
    for (boolean cutOff : new boolean[] {false, true}) {
      try (ProxiedTarget proxied = ProxiedTarget.of(redis.uri())) {
        Client waiter = connect(proxied.target(), LONG_TTL);
        String key = cutOff ? "cut-off" : "closed";
        try (Lease held = holder.locks().lock(key).acquire()) {
          CompletableFuture<Lease> waiting = waiter.locks().lock(key).acquireAsync();
          awaitWaitingFlag(key);
          if (cutOff) {
            proxied.cut();
          }
          waiter.locks().close();
          assertThat(waiting).failsWithin(PROMPTLY);
          assertThat(waiter.backend().wakeUps().channels()).as("the " + key + " client's channels").isEmpty();
        }
      }
    }

    assertNoSubscriptions(holder);
  }

  @Test
  void aWaiterGrantedAfterItsTtlEndsItsSubscriptionAsWellAsItsNextAttempt() throws Exception {
    try (TcpProxy proxy = TcpProxy.start(Loopback.HOST, redis.server().port());
        ProxiedTarget crashingTarget = ProxiedTarget.of(redis.uri())) {
      Client crashing = connect(crashingTarget.target(), LockOptions.defaults().withTtl(Duration.ofSeconds(1)));
      Client waiter = connect("redis://" + proxy.address(), LockOptions.defaults().withTtl(Duration.ofMillis(500)));
      crashing.locks().lock("late").acquire();
      // A reader: it tries again at the holder's expiry, where a waiting writer would try every third of its ttl.
      CompletableFuture<Lease> waiting = waiter.locks().readWriteLock("late").readLock().acquireAsync();
      awaitWaitingFlag("late");
      crashingTarget.cut();
      proxy.delayReplies(); // the waiter's retry at the holder's expiry is granted, and its reply held up

      String waiterId = waiter.locks().clientId();
      await("the waiter's grant at the store").atMost(PROMPTLY).until(() -> {
        Object fields = redis.command("HKEYS", "baton:lock:late");
        return fields instanceof List<?> names && names.stream().anyMatch(name -> ((String) name).startsWith(waiterId + ":"));
      });
      await("the late grant expired at the store").atMost(PROMPTLY)
          .until(() -> redis.command("EXISTS", "baton:lock:late").equals(0L));
      proxy.deliverReplies();

      waiting.get(10, TimeUnit.SECONDS).close();
      assertNoSubscriptions(waiter);
    }
  }

  @Test
  void aWaiterThatGaveUpWhileDisconnectedIsNotSubscribedAgainByTheReconnect() throws Exception {
    try (TcpProxy proxy = TcpProxy.start(Loopback.HOST, redis.server().port())) {
      Client holder = connect();
      Client waiter = connect("redis://" + proxy.address(), LONG_TTL);
      try (Lease held = holder.locks().lock("gave-up").acquire()) {
        BackgroundCall<Lease> waiting = BackgroundCall.start("gives-up",
            () -> waiter.locks().lock("gave-up").acquire(Duration.ofSeconds(1)));
        awaitWaitingFlag("gave-up");
        proxy.refuseConnections(true);
        proxy.dropConnections();
        assertThat(waiting.failure(PROMPTLY)).isInstanceOfAny(LockTimeoutException.class, BackendUnavailableException.class);
        proxy.refuseConnections(false);

        // A wait on another key after the reconnect: its subscription follows the reconnect's own.
        try (Lease other = holder.locks().lock("after-reconnect").acquire()) {
          CompletableFuture<Lease> next = waiter.locks().lock("after-reconnect").acquireAsync();
          await("the waiter back after the reconnect").atMost(Duration.ofSeconds(10)).ignoreExceptions()
              .until(() -> "1".equals(redis.command("HGET", "baton:lock:after-reconnect", "waiting")));
          other.close();
          next.get(10, TimeUnit.SECONDS).close();
        }
      }
      assertNoSubscriptions(holder, waiter);
    }
  }

  /** Waits until a waiter has subscribed and asked the holder's release of {@code key} to wake it. */
  private static void awaitWaitingFlag(String key) {
    await("a waiter's wish to be woken, at the store").atMost(PROMPTLY).pollInterval(Duration.ofMillis(5))
        .until(() -> "1".equals(redis.command("HGET", "baton:lock:" + key, "waiting")));
  }

  private static void assertNoSubscriptions(Client... clients) {
    for (Client client : clients) {
      assertThat(client.backend().wakeUps().channels()).as("the channels of client " + client.locks().clientId()).isEmpty();
    }
    await("no subscription left at the server").atMost(PROMPTLY)
        .untilAsserted(() -> assertThat((List<?>) redis.command("PUBSUB", "CHANNELS", "baton:*")).isEmpty());
  }
}
