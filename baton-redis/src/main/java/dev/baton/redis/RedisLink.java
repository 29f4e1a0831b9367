package dev.baton.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * A client's two connections to one Redis server, to the master that sentinels name, or to a cluster: one for
 * commands and one for wake-ups ({@link WakeUpChannels}), on Lettuce resources of their own. Whichever lock layout a
 * backend writes, it talks to Redis through one of these; where a cluster differs (which command publishes, how
 * subscribers are counted, which keys one script may read), the link's {@link Shards} says.
 */
final class RedisLink implements AutoCloseable {
  /** How often a cluster client asks for the slots even when nothing suggested that they moved. */
  private static final Duration TOPOLOGY_REFRESH = Duration.ofSeconds(5);
  /** The least time between two refreshes that a redirection or a lost node triggers. */
  private static final Duration TRIGGERED_REFRESH = Duration.ofMillis(500);

  private final ClientResources resources;
  private final AbstractRedisClient client;
  private final StatefulConnection<String, String> connection;
  private final AwaitedCommands commands;
  private final StatefulRedisPubSubConnection<String, String> subscriptions;
  private final Shards shards;
  private final WakeUpChannels wakeUps;
  private final AcknowledgedWrites holdingWrites;
  private final Duration commandTimeout;
  private final String server;

  private RedisLink(ClientResources resources, AbstractRedisClient client, StatefulConnection<String, String> connection,
      AwaitedCommands commands, StatefulRedisPubSubConnection<String, String> subscriptions, Shards shards,
      AcknowledgedWrites holdingWrites, Duration commandTimeout, String server) {
    this.resources = resources;
    this.client = client;
    this.connection = connection;
    this.commands = commands;
    this.subscriptions = subscriptions;
    this.shards = shards;
    this.holdingWrites = holdingWrites;
    this.commandTimeout = commandTimeout;
    this.wakeUps = new WakeUpChannels(subscriptions, shards, commandTimeout);
    shards.onTopologyChange(wakeUps::subscribeAgain);
    this.server = server;
  }

  /**
   * Opens the command and subscription connections to one server or a Sentinel master, and a third for the writes that
   * give a holding when {@code acks} asks replicas to acknowledge them; or fails with nothing left.
   */
  static RedisLink connect(RedisURI uri, Duration commandTimeout, Duration connectTimeout, ReplicaAcks acks) {
    String server = RedisTarget.describe(uri);
    uri.setTimeout(commandTimeout);
    // Lettuce bounds the handshake with each sentinel by the sentinel's own timeout, one minute unless set.
    uri.getSentinels().forEach(sentinel -> sentinel.setTimeout(commandTimeout));
    ClientResources resources = newResources(false);
    RedisClient client = new LazyBlockingApiClient(resources, uri);
    client.setOptions(options(ClientOptions.builder(), commandTimeout, connectTimeout, acks).build());
    // The connections handshake at once: a short-lived client (baton exec) waits for one round of them, not two.
    CompletableFuture<StatefulRedisConnection<String, String>> commands =
        client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture();
    CompletableFuture<StatefulRedisPubSubConnection<String, String>> pubSub =
        client.connectPubSubAsync(StringCodec.UTF8, uri).toCompletableFuture();
    CompletableFuture<StatefulRedisConnection<String, String>> acknowledged = acks.enabled()
        ? client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture() : CompletableFuture.completedFuture(null);
    // Through sentinels, Lettuce asks one after the other until one names the master: each may cost a connect and a
    // command, as the master's handshake does.
    Duration bound = connectTimeout.plus(commandTimeout).multipliedBy(uri.getSentinels().size() + 1L);
    return open(resources, client, commands, pubSub, acknowledged, bound, server, RedisTarget.connectAdvice(uri),
        (connection, subscriptions, writes) -> {
          AwaitedCommands awaited = new AwaitedCommands(connection);
          return new RedisLink(resources, client, connection, awaited, subscriptions,
              new OneServerShards(awaited, subscriptions),
              writes == null ? AcknowledgedWrites.unacknowledged(awaited)
                  : AcknowledgedWrites.onServer(writes, acks, server),
              commandTimeout, server);
        });
  }

  /**
   * Opens the command and subscription connections to the cluster that {@code seeds} belong to, or fails with nothing
   * left running. Lettuce reads the slots from the seeds, follows MOVED and ASK redirections, and reads them again
   * after a redirection, when a node is lost, and every few seconds, so that the client follows a failover. When
   * {@code acks} asks replicas to acknowledge the writes that give a holding, a second cluster connection carries them.
   */
  static RedisLink connectCluster(List<RedisURI> seeds, Duration commandTimeout, Duration connectTimeout,
      ReplicaAcks acks) {
    String server = RedisTarget.describe(seeds);
    seeds.forEach(seed -> seed.setTimeout(commandTimeout));
    ClientResources resources = newResources(true);
    RedisClusterClient client = RedisClusterClient.create(resources, seeds);
    client.setOptions(options(ClusterClientOptions.builder(), commandTimeout, connectTimeout, acks)
        .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
            .enablePeriodicRefresh(TOPOLOGY_REFRESH)
            .enableAllAdaptiveRefreshTriggers()
            .adaptiveRefreshTriggersTimeout(TRIGGERED_REFRESH)
            .build())
        .build());
    // The connections are made once the slots are known; then both at once.
    CompletableFuture<Void> slots = client.refreshPartitionsAsync().toCompletableFuture();
    CompletableFuture<StatefulRedisClusterConnection<String, String>> commands =
        slots.thenCompose(known -> client.connectAsync(StringCodec.UTF8));
    CompletableFuture<StatefulRedisClusterPubSubConnection<String, String>> pubSub =
        slots.thenCompose(known -> client.connectPubSubAsync(StringCodec.UTF8));
    CompletableFuture<StatefulRedisClusterConnection<String, String>> acknowledged = acks.enabled()
        ? slots.thenCompose(known -> client.connectAsync(StringCodec.UTF8)) : CompletableFuture.completedFuture(null);
    // The slots are asked of every seed: each may cost a connect and a command, as the first node's handshake does.
    Duration bound = connectTimeout.plus(commandTimeout).multipliedBy(seeds.size() + 1L);
    String advice = "Check that the nodes run there in cluster mode (CLUSTER INFO says cluster_state:ok).";
    return open(resources, client, commands, pubSub, acknowledged, bound, server, advice,
        (connection, subscriptions, writes) -> {
          AwaitedCommands awaited = new AwaitedCommands(connection);
          return new RedisLink(resources, client, connection, awaited, subscriptions,
              new ClusterShards(connection, subscriptions, resources),
              writes == null ? AcknowledgedWrites.unacknowledged(awaited)
                  : AcknowledgedWrites.onCluster(writes, client::refreshPartitionsAsync, acks, server,
                      connectTimeout.plus(commandTimeout)),
              commandTimeout, server);
        });
  }

  /** Makes the link of the connections that are open; the last is null unless replicas acknowledge writes. */
  private interface LinkMaker<C, P> {
    RedisLink make(C commands, P subscriptions, C acknowledged);
  }

  /** Waits for the connections and makes the link; on failure closes whatever was made and shuts the client down. */
  private static <C extends StatefulConnection<String, String>, P extends StatefulRedisPubSubConnection<String, String>>
      RedisLink open(ClientResources resources, AbstractRedisClient client, CompletableFuture<C> commands,
      CompletableFuture<P> pubSub, CompletableFuture<C> acknowledged, Duration bound, String server, String advice,
      LinkMaker<C, P> maker) {
    try {
      return maker.make(await(commands, bound, server), await(pubSub, bound, server),
          await(acknowledged, bound, server));
    } catch (RuntimeException e) {
      closeIfMade(commands);
      closeIfMade(pubSub);
      closeIfMade(acknowledged);
      shutdown(client, resources);
      throw RedisErrors.connectFailed(e, server, advice);
    }
  }

  /**
   * Resources of the link's own, which nothing outside it reads: no command latency recorder (with HdrHistogram and
   * LatencyUtils on the class path, Lettuce would otherwise record every command and publish the figures every ten
   * minutes on an event bus nobody listens to), and the least threads Lettuce allows. A cluster's link listens on
   * Lettuce's event bus for changes of the slots; a link to one server listens to nothing there, and its bus drops
   * the events ({@link DroppedEvents}) rather than start a Reactor scheduler for them.
   */
  private static ClientResources newResources(boolean cluster) {
    DefaultClientResources.Builder resources = DefaultClientResources.builder()
        .commandLatencyRecorder(CommandLatencyRecorder.disabled())
        .ioThreadPoolSize(2)
        .computationThreadPoolSize(2)
        .reconnectDelay(Delay.exponential(Duration.ofMillis(10), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS));
    if (!cluster) {
      resources.eventBus(DroppedEvents.INSTANCE);
    }
    return resources.build();
  }

  private static <B extends ClientOptions.Builder> B options(B builder, Duration commandTimeout,
      Duration connectTimeout, ReplicaAcks acks) {
    builder.autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).keepAlive(true).build())
        .timeoutOptions(acks.enabled() ? waitingLonger(commandTimeout, acks.within())
            : TimeoutOptions.enabled(commandTimeout));
    return builder;
  }

  /** Every command bounded by {@code commandTimeout}, but WAIT, which may take {@code wait} longer by design. */
  private static TimeoutOptions waitingLonger(Duration commandTimeout, Duration wait) {
    long commandMillis = commandTimeout.toMillis();
    long waitMillis = commandMillis + wait.toMillis();
    return TimeoutOptions.builder().timeoutCommands().timeoutSource(new TimeoutOptions.TimeoutSource() {
      @Override
      public long getTimeout(RedisCommand<?, ?, ?> command) {
        return command.getType() == CommandType.WAIT ? waitMillis : commandMillis;
      }
    }).build();
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
    connecting.thenAccept(made -> {
      if (made != null) {
        made.close();
      }
    });
  }

  /**
   * The command connection's commands, each waited for within the command timeout; on a cluster, each sent to the node
   * of its key.
   */
  AwaitedCommands commands() {
    return commands;
  }

  /**
   * Where the writes that give or extend a holding go: the command connection, or, when replicas must acknowledge
   * them, a connection of their own.
   */
  AcknowledgedWrites holdingWrites() {
    return holdingWrites;
  }

  /** How long a command's reply is waited for. */
  Duration commandTimeout() {
    return commandTimeout;
  }

  /** The client's wake-up channels. */
  WakeUpChannels wakeUps() {
    return wakeUps;
  }

  /** The command that publishes a wake-up from a script: PUBLISH, or SPUBLISH on a cluster (sharded channels). */
  String publishCommand() {
    return shards.publishCommand();
  }

  /** How many client connections subscribe to each of {@code channels}, where the scripts publish to them. */
  Map<String, Long> subscribers(List<String> channels) {
    return shards.subscribers(channels);
  }

  /**
   * Runs a script that reads locks, {@code keysOf} each of {@code locks} giving the keys it reads of it and the script
   * returning the same number of values per lock, in the order of its keys: on one server one run for all of them, at
   * one moment; on a cluster one run per slot, as a script may read one slot only.
   */
  List<Object> readLocks(LuaScript script, List<String> locks, Function<String, String[]> keysOf) {
    return shards.readLocks(script, locks, keysOf);
  }

  /** {@code e}, thrown while doing {@code what}, as Baton's exception naming this server. */
  RuntimeException translate(RuntimeException e, String what) {
    return e instanceof ReplicasBehindException ? e : RedisErrors.translate(e, what, server);
  }

  @Override
  public void close() {
    shards.close();
    holdingWrites.close();
    subscriptions.close();
    connection.close();
    shutdown(client, resources);
  }

  private static void shutdown(AbstractRedisClient client, ClientResources resources) {
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    resources.shutdown(0, 2, TimeUnit.SECONDS);
  }
}
