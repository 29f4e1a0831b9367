package dev.baton.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Where a link sends the writes that give or extend a holding (the acquire, the renewal, the keeping of a holding
 * handed on), and, when {@link ReplicaAcks replicas must acknowledge them}, the {@code WAIT} that follows each one
 * that took effect. {@code WAIT} counts the writes of the connection it is sent on, and blocks that connection until
 * it answers; so these writes go on a connection of their own, and the link's other commands (releases, reads,
 * renewals of a client without acknowledgement) never queue behind a wait. On a cluster that connection is the
 * node connection to the master of the key's slot, on which the write and its {@code WAIT} both run.
 */
final class AcknowledgedWrites implements AutoCloseable {
  /** Finds the connection for a key's writes, connecting when needed. */
  private interface Connections extends AutoCloseable {
    CompletableFuture<StatefulRedisConnection<String, String>> of(String key);

    /** The key's slot has moved (a MOVED or ASK answer on a node connection, which does not follow it). */
    default void moved() {}

    @Override
    void close();
  }

  private final ReplicaAcks acks;
  private final String server;
  private final AwaitedCommands commands;
  private final Connections connections;

  private AcknowledgedWrites(ReplicaAcks acks, String server, AwaitedCommands commands, Connections connections) {
    this.acks = acks;
    this.server = server;
    this.commands = commands;
    this.connections = connections;
  }

  /** Writes on the link's command connection ({@code commands}), counted once the master took them. */
  static AcknowledgedWrites unacknowledged(AwaitedCommands commands) {
    return new AcknowledgedWrites(ReplicaAcks.NONE, null, commands, null);
  }

  /** Writes on {@code connection} to one server or a Sentinel master, each counted once {@code acks} holds. */
  static AcknowledgedWrites onServer(StatefulRedisConnection<String, String> connection, ReplicaAcks acks,
      String server) {
    CompletableFuture<StatefulRedisConnection<String, String>> connected =
        CompletableFuture.completedFuture(connection);
    return new AcknowledgedWrites(acks, server, null, new Connections() {
      @Override
      public CompletableFuture<StatefulRedisConnection<String, String>> of(String key) {
        return connected;
      }

      @Override
      public void close() {
        connection.close();
      }
    });
  }

  /**
   * Writes on {@code cluster}'s node connection to the master of each key's slot, each counted once {@code acks}
   * holds; {@code refresh} reads the slots again when a node answers that a key is not its own; a node connection not
   * made within {@code connectBound} fails the write.
   */
  static AcknowledgedWrites onCluster(StatefulRedisClusterConnection<String, String> cluster, Runnable refresh,
      ReplicaAcks acks, String server, Duration connectBound) {
    return new AcknowledgedWrites(acks, server, null, new Connections() {
      @Override
      public CompletableFuture<StatefulRedisConnection<String, String>> of(String key) {
        int slot = SlotHash.getSlot(key);
        RedisClusterNode master = cluster.getPartitions().getMasterBySlot(slot);
        if (master == null) {
          return CompletableFuture.failedFuture(new RedisException("No master serves slot " + slot + " now"));
        }
        // A node that is down may keep a connect pending: the write fails as any command to it would, in time.
        return cluster.getConnectionAsync(master.getNodeId())
            .orTimeout(connectBound.toNanos(), TimeUnit.NANOSECONDS);
      }

      @Override
      public void moved() {
        refresh.run();
      }

      @Override
      public void close() {
        cluster.close();
      }
    });
  }

  /**
   * Whether these writes go on the link's command connection, as every other command of the link does: true unless
   * replicas must acknowledge them.
   */
  boolean onCommandConnection() {
    return connections == null;
  }

  /**
   * Runs {@code write} of {@code key}; if {@code tookEffect} says it gave or extended a holding and replicas must
   * acknowledge it, waits for them.
   *
   * @throws ReplicasBehindException if fewer replicas acknowledged it in time; the write stays at the master
   */
  <T> T write(String key, Function<AwaitedCommands, T> write, Predicate<T> tookEffect) {
    if (connections == null) {
      return write.apply(commands);
    }
    StatefulRedisConnection<String, String> connection = connection(key);
    AwaitedCommands onConnection = new AwaitedCommands(connection);
    T result = afterMoved(() -> write.apply(onConnection));
    if (tookEffect.test(result)) {
      // WAIT may take the acknowledgement's time on top of the command timeout: the connection's options say so.
      Long acknowledged =
          onConnection.await(onConnection.async().waitForReplication(acks.replicas(), acks.within().toMillis()));
      acks.check(acknowledged, key, server);
    }
    return result;
  }

  /** {@link #write} that returns at once; the stage fails with {@link ReplicasBehindException} as that throws it. */
  <T> CompletionStage<T> writeAsync(String key, Function<RedisClusterAsyncCommands<String, String>,
      CompletionStage<T>> write, Predicate<T> tookEffect) {
    if (connections == null) {
      return write.apply(commands.async());
    }
    return connections.of(key).thenCompose(connection -> write.apply(connection.async())
        .whenComplete((result, failure) -> {
          if (failure != null) {
            movedIf(failure);
          }
        })
        .thenCompose(result -> !tookEffect.test(result) ? CompletableFuture.completedFuture(result)
            : connection.async().waitForReplication(acks.replicas(), acks.within().toMillis())
                .thenApply(acknowledged -> {
                  acks.check(acknowledged, key, server);
                  return result;
                })));
  }

  private StatefulRedisConnection<String, String> connection(String key) {
    try {
      return connections.of(key).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  private <T> T afterMoved(Supplier<T> write) {
    try {
      return write.get();
    } catch (RuntimeException e) {
      movedIf(e);
      throw e;
    }
  }

  /** Reads the slots again if {@code failure} is a node's answer that the key is served elsewhere. */
  private void movedIf(Throwable failure) {
    if (RedisErrors.isRedirection(failure)) {
      connections.moved();
    }
  }

  @Override
  public void close() {
    if (connections != null) {
      connections.close();
    }
  }
}
