package dev.baton.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A client's two connections to one Redis server, or to the master that sentinels name: one for commands and one for
 * wake-ups ({@link WakeUpChannels}), on Lettuce resources of their own. Whichever lock layout a backend writes, it
 * talks to Redis through one of these.
 */
final class RedisLink implements AutoCloseable {
  private final ClientResources resources;
  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;
  private final StatefulRedisPubSubConnection<String, String> subscriptions;
  private final WakeUpChannels wakeUps;
  private final String server;

  private RedisLink(ClientResources resources, RedisClient client, StatefulRedisConnection<String, String> connection,
      StatefulRedisPubSubConnection<String, String> subscriptions, Duration commandTimeout, String server) {
    this.resources = resources;
    this.client = client;
    this.connection = connection;
    this.subscriptions = subscriptions;
    this.wakeUps = new WakeUpChannels(subscriptions, commandTimeout);
    this.server = server;
  }

  /** Opens the command and subscription connections, or fails with nothing left running. */
  static RedisLink connect(RedisURI uri, Duration commandTimeout, Duration connectTimeout) {
    String server = RedisTarget.describe(uri);
    uri.setTimeout(commandTimeout);
    // Lettuce bounds the handshake with each sentinel by the sentinel's own timeout, one minute unless set.
    uri.getSentinels().forEach(sentinel -> sentinel.setTimeout(commandTimeout));
    ClientResources resources = DefaultClientResources.builder()
        .ioThreadPoolSize(2)
        .computationThreadPoolSize(2)
        .reconnectDelay(Delay.exponential(Duration.ofMillis(10), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
        .build();
    RedisClient client = RedisClient.create(resources, uri);
    client.setOptions(ClientOptions.builder()
        .autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).keepAlive(true).build())
        .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
        .build());
    // Both connections handshake at once: a short-lived client (baton exec) waits for one round of them, not two.
    CompletableFuture<StatefulRedisConnection<String, String>> commands =
        client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture();
    CompletableFuture<StatefulRedisPubSubConnection<String, String>> pubSub =
        client.connectPubSubAsync(StringCodec.UTF8, uri).toCompletableFuture();
    // Through sentinels, Lettuce asks one after the other until one names the master: each may cost a connect and a
    // command, as the master's handshake does.
    Duration bound = connectTimeout.plus(commandTimeout).multipliedBy(uri.getSentinels().size() + 1L);
    try {
      StatefulRedisConnection<String, String> connection = await(commands, bound, server);
      StatefulRedisPubSubConnection<String, String> subscriptions = await(pubSub, bound, server);
      return new RedisLink(resources, client, connection, subscriptions, commandTimeout, server);
    } catch (RuntimeException e) {
      closeIfMade(commands);
      closeIfMade(pubSub);
      shutdown(client, resources);
      throw RedisErrors.connectFailed(e, server, RedisTarget.connectAdvice(uri));
    }
  }

  /** The connection once its handshake is done, within {@code bound}; the failure as the client's sync connect throws it. */
  private static <C> C await(CompletableFuture<C> connecting, Duration bound, String server) {
    try {
      return connecting.get(bound.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RedisConnectionException failure ? failure
          : RedisConnectionException.create(server, e.getCause());
    } catch (TimeoutException e) {
      throw new RedisConnectionException("No answer from " + server + " within " + bound.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisConnectionException("Interrupted while connecting to " + server, e);
    }
  }

  /** Closes a connection that was made, or is made later, after a connect that failed as a whole. */
  private static void closeIfMade(CompletableFuture<? extends StatefulConnection<String, String>> connecting) {
    connecting.cancel(false);
    connecting.thenAccept(StatefulConnection::close);
  }

  /** Blocking commands, each bounded by the command timeout. */
  RedisCommands<String, String> sync() {
    return connection.sync();
  }

  /** Commands that return at once, for the watchdog's renewals. */
  RedisAsyncCommands<String, String> async() {
    return connection.async();
  }

  /** The client's wake-up channels. */
  WakeUpChannels wakeUps() {
    return wakeUps;
  }

  /** {@code e}, thrown while doing {@code what}, as Baton's exception naming this server. */
  RuntimeException translate(RuntimeException e, String what) {
    return RedisErrors.translate(e, what, server);
  }

  @Override
  public void close() {
    subscriptions.close();
    connection.close();
    shutdown(client, resources);
  }

  private static void shutdown(RedisClient client, ClientResources resources) {
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    resources.shutdown(0, 2, TimeUnit.SECONDS);
  }
}
