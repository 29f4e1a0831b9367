package dev.baton.redis;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.protocol.RedisCommand;
import java.util.concurrent.TimeUnit;

/**
 * A connection's asynchronous commands, and the wait for a reply that Lettuce's blocking API does: bounded by the
 * command's timeout as the connection's timeout options give it (so {@code WAIT} may take longer when replicas must
 * acknowledge writes), the command cancelled when that passes, the server's errors and the timeout thrown as the
 * same exceptions. Baton waits here rather than through {@code connection.sync()}, whose proxy class the JDK would
 * generate, at a cost, in every process that asks for it.
 */
final class AwaitedCommands {
  private final StatefulConnection<String, String> connection;
  private final RedisClusterAsyncCommands<String, String> async;

  /** The commands of a connection to one server (or a Sentinel master). */
  AwaitedCommands(StatefulRedisConnection<String, String> connection) {
    this(connection, connection.async());
  }

  /** The commands of a cluster connection. */
  AwaitedCommands(StatefulRedisClusterConnection<String, String> connection) {
    this(connection, connection.async());
  }

  private AwaitedCommands(StatefulConnection<String, String> connection,
      RedisClusterAsyncCommands<String, String> async) {
    this.connection = connection;
    this.async = async;
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
    return LettuceFutures.awaitOrCancel(command, timeoutNanos(command), TimeUnit.NANOSECONDS);
  }

  /**
   * The bound the blocking API puts on {@code command} (Lettuce's TimeoutProvider): the timeout source's for one
   * command when commands time out by it, else the connection's, as for a reply gathered from several nodes.
   */
  private long timeoutNanos(RedisFuture<?> command) {
    TimeoutOptions options = connection.getOptions().getTimeoutOptions();
    TimeoutOptions.TimeoutSource source = options.getSource();
    if (command instanceof RedisCommand<?, ?, ?> one && source != null && options.isTimeoutCommands()
        && !options.isApplyConnectionTimeout()) {
      long nanos = source.getTimeUnit().toNanos(source.getTimeout(one));
      if (nanos >= 0) {
        return nanos;
      }
    }
    return connection.getTimeout().toNanos();
  }
}
