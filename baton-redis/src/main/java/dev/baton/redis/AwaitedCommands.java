package dev.baton.redis;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.internal.TimeoutProvider;
import io.lettuce.core.protocol.RedisCommand;
import java.util.concurrent.TimeUnit;

/**
 * A connection's asynchronous commands, and the wait for a reply that Lettuce's blocking API does: bounded by the
 * command's timeout (the connection's timeout options, so that {@code WAIT} may take longer when replicas must
 * acknowledge writes), the command cancelled when that passes, and the same exceptions thrown. Baton waits here rather
 * than through {@code connection.sync()}, whose proxy class the JDK would generate, at a cost, in every process.
 */
final class AwaitedCommands {
  private final StatefulConnection<String, String> connection;
  private final RedisClusterAsyncCommands<String, String> async;
  private final TimeoutProvider timeouts;

  AwaitedCommands(StatefulConnection<String, String> connection, RedisClusterAsyncCommands<String, String> async) {
    this.connection = connection;
    this.async = async;
    this.timeouts = new TimeoutProvider(() -> connection.getOptions().getTimeoutOptions(),
        () -> connection.getTimeout().toNanos());
  }

  /** The commands, each returning at once; on a cluster, each sent to the node of its key. */
  RedisClusterAsyncCommands<String, String> async() {
    return async;
  }

  /**
   * The reply to {@code command}, waited for as long as the blocking API would.
   *
   * @throws io.lettuce.core.RedisCommandTimeoutException if none came in time; the command is cancelled
   * @throws io.lettuce.core.RedisCommandExecutionException if the server answered with an error
   */
  <T> T await(RedisFuture<T> command) {
    // A command sent to several nodes (SCAN on a cluster) has no timeout of its own: the connection's applies.
    long timeoutNanos = command instanceof RedisCommand<?, ?, ?> one ? timeouts.getTimeoutNs(one)
        : connection.getTimeout().toNanos();
    return LettuceFutures.awaitOrCancel(command, timeoutNanos, TimeUnit.NANOSECONDS);
  }
}
