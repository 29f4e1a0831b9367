package dev.baton.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import reactor.core.Disposable;

/**
 * A cluster's keys and channels, spread over its masters by slot. Wake-ups are sharded pub/sub (Redis 7): the scripts
 * SPUBLISH on the lock's channel, which shares the lock's hash tag, so it reaches the clients that SSUBSCRIBE to it at
 * the master serving that slot (and its replicas). Each channel is subscribed on the subscription connection's
 * connection to that master, and subscribed again at the new master when the slots move (a failover, a resharding);
 * a wake-up published meanwhile is lost, which costs a waiter at most the wait its last try was told.
 */
final class ClusterShards implements Shards {
  /** How soon a failed subscribe, or a change of the slots, is followed by another pass over the channels. */
  private static final Duration RETRY_AFTER = Duration.ofMillis(500);

  private final StatefulRedisClusterConnection<String, String> commands;
  private final AwaitedCommands scripts;
  private final StatefulRedisClusterPubSubConnection<String, String> subscriptions;
  private final ClientResources resources;
  /** The node id of the master each channel is subscribed at. */
  private final ConcurrentHashMap<String, String> subscribedAt = new ConcurrentHashMap<>();
  private volatile Disposable topologyChanges;
  /** What subscribes every channel that waiters need again, where its slot is now; none until it is set. */
  private volatile Runnable subscribeAgain;

  ClusterShards(StatefulRedisClusterConnection<String, String> commands,
      StatefulRedisClusterPubSubConnection<String, String> subscriptions, ClientResources resources) {
    this.commands = commands;
    this.scripts = new AwaitedCommands(commands);
    this.subscriptions = subscriptions;
    this.resources = resources;
    subscriptions.setNodeMessagePropagation(true);
  }

  @Override
  public String publishCommand() {
    return "SPUBLISH";
  }

  /** SSUBSCRIBE at the master of the channel's slot, unless the channel is subscribed there already. */
  @Override
  public CompletableFuture<?> subscribe(String channel) {
    RedisClusterNode master;
    try {
      master = masterOf(channel);
    } catch (RedisException e) {
      later(subscribeAgain);
      return CompletableFuture.failedFuture(e);
    }
    String previous = subscribedAt.put(channel, master.getNodeId());
    if (master.getNodeId().equals(previous)) {
      return CompletableFuture.completedFuture(null);
    }
    if (previous != null) {
      sunsubscribe(previous, channel);
    }
    CompletableFuture<?> subscribing;
    try {
      subscribing = subscriptions.getConnectionAsync(master.getNodeId())
          .thenCompose(node -> node.async().ssubscribe(channel).toCompletableFuture());
    } catch (RuntimeException e) {
      subscribing = CompletableFuture.failedFuture(e);
    }
    // Not subscribed there after all (a node just promoted may refuse a connection for a moment): try again soon.
    subscribing.whenComplete((done, failure) -> {
      if (failure != null) {
        subscribedAt.remove(channel, master.getNodeId());
        later(subscribeAgain);
      }
    });
    return subscribing;
  }

  @Override
  public CompletableFuture<?> unsubscribe(String channel) {
    String node = subscribedAt.remove(channel);
    return node == null ? CompletableFuture.completedFuture(null) : sunsubscribe(node, channel);
  }

  private CompletableFuture<?> sunsubscribe(String nodeId, String channel) {
    try {
      return subscriptions.getConnectionAsync(nodeId)
          .thenCompose(node -> node.async().sunsubscribe(channel).toCompletableFuture());
    } catch (RuntimeException nodeGone) {
      // A node no longer in the cluster dropped its subscriptions with its connection.
      return CompletableFuture.failedFuture(nodeGone);
    }
  }

  /** PUBSUB SHARDNUMSUB at the master of each channel's slot. */
  @Override
  public Map<String, Long> subscribers(List<String> channels) {
    Map<String, List<String>> byMaster = new HashMap<>();
    for (String channel : channels) {
      byMaster.computeIfAbsent(masterOf(channel).getNodeId(), node -> new ArrayList<>()).add(channel);
    }
    Map<String, Long> counts = new HashMap<>();
    byMaster.forEach((node, ofNode) ->
        counts.putAll(commands.getConnection(node).sync().pubsubShardNumsub(ofNode.toArray(String[]::new))));
    return counts;
  }

  /** One run of the script per slot, its values put back in the order of {@code locks}. */
  @Override
  public List<Object> readLocks(LuaScript script, List<String> locks, Function<String, String[]> keysOf) {
    Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
    for (int i = 0; i < locks.size(); i++) {
      bySlot.computeIfAbsent(SlotHash.getSlot(keysOf.apply(locks.get(i))[0]), slot -> new ArrayList<>()).add(i);
    }
    List<List<Object>> perLock = new ArrayList<>(locks.size());
    locks.forEach(lock -> perLock.add(null));
    for (List<Integer> ofSlot : bySlot.values()) {
      List<Object> values = script.run(scripts, ScriptOutputType.MULTI,
          ofSlot.stream().flatMap(i -> List.of(keysOf.apply(locks.get(i))).stream()).toArray(String[]::new));
      int each = values.size() / ofSlot.size();
      for (int j = 0; j < ofSlot.size(); j++) {
        perLock.set(ofSlot.get(j), values.subList(j * each, (j + 1) * each));
      }
    }
    List<Object> all = new ArrayList<>();
    perLock.forEach(all::addAll);
    return all;
  }

  /**
   * Runs {@code action} at every change of the slots, and once more a moment later: the subscription connection may
   * learn the new slots after the event, and a channel subscribed by the old ones would otherwise stay at a node that
   * no longer serves it until the next change.
   */
  @Override
  public void onTopologyChange(Runnable action) {
    subscribeAgain = action;
    topologyChanges = resources.eventBus().get()
        .filter(ClusterTopologyChangedEvent.class::isInstance)
        .subscribe(event -> {
          action.run();
          later(action);
        });
  }

  /** Runs {@code action} after {@link #RETRY_AFTER}, unless the client is closed by then. */
  private void later(Runnable action) {
    if (action == null || isClosed()) {
      return;
    }
    CompletableFuture.runAsync(() -> {
      if (!isClosed()) {
        action.run();
      }
    }, CompletableFuture.delayedExecutor(RETRY_AFTER.toMillis(), TimeUnit.MILLISECONDS));
  }

  private boolean isClosed() {
    Disposable changes = topologyChanges;
    return changes == null || changes.isDisposed();
  }

  private RedisClusterNode masterOf(String channel) {
    int slot = SlotHash.getSlot(channel);
    RedisClusterNode master = subscriptions.getPartitions().getMasterBySlot(slot);
    if (master == null) {
      throw new RedisException("No master of the cluster serves slot " + slot + " (of '" + channel + "') now");
    }
    return master;
  }

  @Override
  public void close() {
    Disposable changes = topologyChanges;
    if (changes != null) {
      changes.dispose();
    }
  }
}
