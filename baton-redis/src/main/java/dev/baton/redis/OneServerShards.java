package dev.baton.redis;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** One server's keys and channels, or a Sentinel master's: classic pub/sub, and one script reads every lock at once. */
record OneServerShards(AwaitedCommands redis,
    StatefulRedisPubSubConnection<String, String> subscriptions) implements Shards {

  @Override
  public String publishCommand() {
    return "PUBLISH";
  }

  @Override
  public CompletableFuture<?> subscribe(String channel) {
    return subscriptions.async().subscribe(channel).toCompletableFuture();
  }

  @Override
  public CompletableFuture<?> unsubscribe(String channel) {
    return subscriptions.async().unsubscribe(channel).toCompletableFuture();
  }

  @Override
  public Map<String, Long> subscribers(List<String> channels) {
    return redis.await(redis.async().pubsubNumsub(channels.toArray(String[]::new)));
  }

  @Override
  public List<Object> readLocks(LuaScript script, List<String> locks, Function<String, String[]> keysOf) {
    return script.run(redis, ScriptOutputType.MULTI,
        locks.stream().flatMap(lock -> List.of(keysOf.apply(lock)).stream()).toArray(String[]::new));
  }
}
