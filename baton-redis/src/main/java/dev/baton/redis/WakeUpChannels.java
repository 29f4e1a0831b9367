package dev.baton.redis;

import dev.baton.spi.WakeUp;
import io.lettuce.core.RedisException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The client's one subscription connection: a channel per waited-on key, subscribed while someone in
 * this process waits for it, and a message on it signals that key's waiters. Lettuce subscribes again
 * after a reconnect, to every channel the server last confirmed; a message lost meanwhile costs a waiter at
 * most its retry delay. Those channels include any whose last waiter left while the connection was down (its
 * UNSUBSCRIBE was rejected): a confirmation of a channel no one here waits for unsubscribes it. The {@link Shards}
 * send the subscriptions where the scripts publish: classic channels on one server, sharded ones on a cluster.
 *
 * <p>The same connection carries the client's own channel for requests to release its entries ({@link #receive}),
 * subscribed from the first lease that wants to hear them until the client closes.
 */
final class WakeUpChannels extends RedisPubSubAdapter<String, String> {
  private final Shards shards;
  private final Duration timeout;
  private final ConcurrentHashMap<String, List<WakeUp>> waiters = new ConcurrentHashMap<>();
  /** The channels whose messages go to a receiver, not to waiters: the client's channel for requests to release. */
  private final ConcurrentHashMap<String, Consumer<String>> receivers = new ConcurrentHashMap<>();

  WakeUpChannels(StatefulRedisPubSubConnection<String, String> connection, Shards shards, Duration timeout) {
    this.shards = shards;
    this.timeout = timeout;
    connection.addListener(this);
  }

  /** Signals {@code wakeUp} on every message to {@code channel} until the returned handle is closed; waits for the subscription. */
  Subscription subscribe(String channel, WakeUp wakeUp) {
    CompletableFuture<?>[] subscribing = new CompletableFuture<?>[1];
    // The command is sent inside compute so that it is ordered with any unsubscribe of the same channel.
    waiters.compute(channel, (c, list) -> {
      List<WakeUp> result = list != null ? list : new CopyOnWriteArrayList<>();
      if (list == null) {
        subscribing[0] = shards.subscribe(c);
      }
      result.add(wakeUp);
      return result;
    });
    Subscription subscription = new Subscription(channel, wakeUp);
    if (subscribing[0] != null) {
      try {
        subscribing[0].get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      } catch (ExecutionException | TimeoutException | RuntimeException e) {
        subscription.close();
        throw new RedisException("SUBSCRIBE " + channel + " failed: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        subscription.close();
        Thread.currentThread().interrupt();
        throw new RedisException("SUBSCRIBE " + channel + " was interrupted", e);
      }
    }
    return subscription;
  }

  /**
   * Hands every message on {@code channel} to {@code receiver}, from when this returns until the connection closes;
   * waits for the subscription.
   */
  void receive(String channel, Consumer<String> receiver) {
    receivers.put(channel, receiver);
    try {
      shards.subscribe(channel).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      receivers.remove(channel);
      throw new RedisException("SUBSCRIBE " + channel + " failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      receivers.remove(channel);
      Thread.currentThread().interrupt();
      throw new RedisException("SUBSCRIBE " + channel + " was interrupted", e);
    }
  }

  /** The channels this client is subscribed to now, or is subscribing to: one per key that a thread of it waits for. */
  Set<String> channels() {
    return Set.copyOf(waiters.keySet());
  }

  /**
   * Subscribes every channel a waiter here needs again, where it is published now: after the slots of a cluster
   * moved. A channel subscribed there already is left as it is.
   */
  void subscribeAgain() {
    receivers.keySet().forEach(shards::subscribe);
    for (String channel : waiters.keySet()) {
      // Inside compute, so that it is ordered with the unsubscribe of the channel's last waiter. A subscribe that
      // fails leaves the channel's waiters to their wait bound, as a lost wake-up would.
      waiters.computeIfPresent(channel, (c, list) -> {
        shards.subscribe(c);
        return list;
      });
    }
  }

  /** Unsubscribes a channel the server confirmed that no waiter here needs any more (see the class comment). */
  @Override
  public void subscribed(String channel, long count) {
    // Inside compute, so that it is ordered with a subscribe of the same channel by a new waiter.
    waiters.compute(channel, (c, list) -> {
      if (list == null && !receivers.containsKey(c)) {
        shards.unsubscribe(c);
      }
      return list;
    });
  }

  @Override
  public void ssubscribed(String channel, long count) {
    subscribed(channel, count);
  }

  @Override
  public void message(String channel, String message) {
    Consumer<String> receiver = receivers.get(channel);
    if (receiver != null) {
      receiver.accept(message);
      return;
    }
    List<WakeUp> list = waiters.get(channel);
    if (list != null) {
      list.forEach(WakeUp::signal);
    }
  }

  @Override
  public void smessage(String channel, String message) {
    message(channel, message);
  }

  /**
   * One waiter's interest in one channel. Closing it twice removes it once: the engine signals the successive
   * attempts of one acquire through the same {@link WakeUp}, and a second close must not remove a later one's.
   */
  final class Subscription implements AutoCloseable {
    private final String channel;
    private final WakeUp wakeUp;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Subscription(String channel, WakeUp wakeUp) {
      this.channel = channel;
      this.wakeUp = wakeUp;
    }

    /** Stops the wake-ups; the last waiter of the channel in this client unsubscribes, without waiting for the reply. */
    @Override
    public void close() {
      unsubscribe();
    }

    /**
     * As {@link #close()}, then waits up to the command timeout for the server to confirm the unsubscribe, so that it
     * no longer counts this client among the key's waiters. A reply that does not come is left alone: a server that
     * cannot be reached drops the subscription with the connection, and one confirmed again after a reconnect is
     * unsubscribed then (see the class comment).
     */
    void closeAndConfirm() {
      CompletableFuture<?> unsubscribing = unsubscribe();
      if (unsubscribing == null) {
        return;
      }
      try {
        unsubscribing.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException | TimeoutException | RuntimeException leftAlone) {
        // Left alone: see above.
      }
    }

    /** The UNSUBSCRIBE sent if this was the channel's last waiter here, else null. */
    private CompletableFuture<?> unsubscribe() {
      if (!closed.compareAndSet(false, true)) {
        return null;
      }
      CompletableFuture<?>[] unsubscribing = new CompletableFuture<?>[1];
      waiters.computeIfPresent(channel, (c, list) -> {
        list.remove(wakeUp);
        if (!list.isEmpty()) {
          return list;
        }
        unsubscribing[0] = shards.unsubscribe(c);
        return null;
      });
      return unsubscribing[0];
    }
  }
}
