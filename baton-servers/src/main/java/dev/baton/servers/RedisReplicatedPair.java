package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Redis primary with one asynchronous replica, both without persistence, behind a {@link TcpProxy} that
 * plays the part of Sentinel's or a cloud's moving address: {@link #failover()} kills the primary, promotes
 * the replica and points the proxy at it, so clients reconnect to the new primary. What the primary had
 * not yet sent to the replica is lost, as in a real failover. Afterwards the old primary comes back as the
 * new one's replica, ready for the next failover.
 */
public final class RedisReplicatedPair implements AutoCloseable {
  private static final Pattern ONLINE_REPLICA = Pattern.compile("slave0:[^\\r\\n]*state=online,offset=(\\d+)");
  private static final Pattern MASTER_OFFSET = Pattern.compile("master_repl_offset:(\\d+)");
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(30);

  private RedisServer primary = newServer();
  private RedisServer replica = newServer();
  private TcpProxy proxy;

  /** Starts both servers, makes the second a replica of the first, and starts the proxy to the primary. */
  public void start() {
    primary.start();
    replica.start();
    replicate(replica, primary);
    awaitInSync();
    proxy = TcpProxy.start(Loopback.HOST, primary.port());
  }

  /** The address clients use: the proxy's, {@code redis://127.0.0.1:PORT}. */
  public String uri() {
    return "redis://" + proxy.address();
  }

  /** The current primary. */
  public RedisServer primary() {
    return primary;
  }

  /** The current replica. */
  public RedisServer replica() {
    return replica;
  }

  /**
   * Cuts the replica off, as a replica that lags far behind: what the primary writes from now on never reaches
   * it, and is lost at the next {@link #failover()}.
   */
  public void cutReplication() {
    replica.command("REPLICAOF", "NO", "ONE");
  }

  /**
   * Makes the replica replicate the primary again, as after {@link #cutReplication()}, and returns once the primary
   * reports it online and caught up.
   *
   * @throws IllegalStateException if that did not happen within 30 s
   */
  public void restoreReplication() {
    replicate(replica, primary);
    awaitInSync();
  }

  /**
   * Waits until the primary reports its replica online, with the primary's whole replication stream acknowledged.
   *
   * @throws IllegalStateException if that did not happen within 30 s; the message gives both offsets
   */
  public void awaitInSync() {
    Settling.awaitNothingMissing("the replica of " + primary + " to be online and caught up", SYNC_TIMEOUT, () -> {
      String info = String.valueOf(primary.command("INFO", "replication"));
      Matcher online = ONLINE_REPLICA.matcher(info);
      Matcher offset = MASTER_OFFSET.matcher(info);
      if (!online.find()) {
        return "the primary reports no replica online";
      }
      if (!offset.find()) {
        return "the primary reports no replication offset";
      }
      if (!online.group(1).equals(offset.group(1))) {
        return "the replica acknowledged offset " + online.group(1) + " of the primary's " + offset.group(1);
      }
      return null;
    });
  }

  /** Kills the primary, promotes the replica, moves the address to it, and makes the old primary its replica. */
  public void failover() {
    primary.stop();
    replica.command("REPLICAOF", "NO", "ONE");
    proxy.retarget(Loopback.HOST, replica.port());
    RedisServer old = primary;
    primary = replica;
    replica = old;
    replica.start();
    replicate(replica, primary);
  }

  @Override
  public String toString() {
    return "Redis primary " + primary + " with replica " + replica;
  }

  @Override
  public void close() {
    if (proxy != null) {
      proxy.close();
    }
    primary.stop();
    replica.stop();
  }

  /** A server that starts a full sync at once rather than waiting 5 s for more replicas, as redis.conf's default does. */
  private static RedisServer newServer() {
    return new RedisServer(List.of("--repl-diskless-sync-delay", "0"), Loopback::freePort);
  }

  private static void replicate(RedisServer replica, RedisServer primary) {
    replica.command("REPLICAOF", Loopback.HOST, Integer.toString(primary.port()));
  }
}
