package dev.baton.testkit;

import dev.baton.embedded.Loopback;
import dev.baton.testkit.torture.ServerFaults;

/**
 * A Redis primary with one asynchronous replica, both without persistence, behind a {@link TcpProxy} that
 * plays the part of Sentinel's or a cloud's moving address: {@link #failover()} kills the primary, promotes
 * the replica and points the proxy at it, so clients reconnect to the new primary. What the primary had
 * not yet sent to the replica is lost, as in a real failover. Afterwards the old primary comes back as the
 * new one's replica, ready for the next failover.
 */
public final class RedisReplicatedPair implements ServerFaults, AutoCloseable {
  private RedisServer primary = new RedisServer();
  private RedisServer replica = new RedisServer();
  private TcpProxy proxy;

  /** Starts both servers, makes the second a replica of the first, and starts the proxy to the primary. */
  public void start() {
    primary.start();
    replica.start();
    replicate(replica, primary);
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

  /**
   * Cuts the replica off, as a replica that lags far behind: what the primary writes from now on never reaches
   * it, and is lost at the next {@link #failover()}.
   */
  public void cutReplication() {
    replica.command("REPLICAOF", "NO", "ONE");
  }

  /** Kills the primary, promotes the replica, moves the address to it, and makes the old primary its replica. */
  @Override
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

  private static void replicate(RedisServer replica, RedisServer primary) {
    replica.command("REPLICAOF", Loopback.HOST, Integer.toString(primary.port()));
  }
}
