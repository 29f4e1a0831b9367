package dev.baton.redis;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Where a link's keys and wake-up channels live: on one server (or the master that sentinels name), or spread over
 * the masters of a cluster by slot. It says which command publishes a wake-up, sends a channel's SUBSCRIBE and
 * UNSUBSCRIBE to where that command publishes, counts a channel's subscribers there, and reads locks in as few
 * scripts as the topology allows.
 */
interface Shards extends AutoCloseable {
  /** The command a script publishes a wake-up with. */
  String publishCommand();

  /** Subscribes the client's subscription connection to {@code channel}; complete once the server confirmed it. */
  CompletableFuture<?> subscribe(String channel);

  /** Unsubscribes the client's subscription connection from {@code channel}; complete once the server confirmed it. */
  CompletableFuture<?> unsubscribe(String channel);

  /** How many client connections subscribe to each of {@code channels}. */
  Map<String, Long> subscribers(List<String> channels);

  /** See {@link RedisLink#readLocks}. */
  List<Object> readLocks(LuaScript script, List<String> locks, Function<String, String[]> keysOf);

  /** Calls {@code action} whenever the channels may have moved to other nodes; one server's never do. */
  default void onTopologyChange(Runnable action) {}

  @Override
  default void close() {}
}
