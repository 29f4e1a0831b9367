package dev.baton.torture;

import dev.baton.embedded.EmbeddedZooKeeper;
import dev.baton.embedded.ZooKeeperEnsemble;
import dev.baton.servers.EtcdCluster;
import dev.baton.servers.EtcdServer;
import dev.baton.servers.MariaDbServer;
import dev.baton.servers.PostgresServer;
import dev.baton.servers.RedisReplicatedPair;
import dev.baton.servers.RedisSentinelSet;
import dev.baton.servers.RedisServer;
import java.time.Duration;

/**
 * The faults a torture may inject into the servers of {@code baton-servers} and {@code baton-embedded}:
 * {@code server-restart} on a single server, {@code leader-kill} on a ZooKeeper ensemble or an etcd cluster,
 * {@code failover} on a Redis primary with its replica (behind a proxy or watched by sentinels), {@code connection-kill}
 * on PostgreSQL and MariaDB.
 */
public final class TortureServers {
  private static final Duration ELECTION_TIMEOUT = Duration.ofSeconds(20);

  private TortureServers() {}

  /** Restarts the Redis server; without persistence, every lock is gone. */
  public static ServerFaults of(RedisServer server) {
    return restarting(server::restart, server.toString());
  }

  /** Restarts the in-process ZooKeeper server over its data: sessions that do not time out meanwhile live on. */
  public static ServerFaults of(EmbeddedZooKeeper server) {
    return restarting(server::restart, server.toString());
  }

  /** Restarts the etcd member over its data: leases that do not expire meanwhile live on. */
  public static ServerFaults of(EtcdServer server) {
    return restarting(server::restart, server.toString());
  }

  /**
   * Restarts the PostgreSQL server over its data (rows survive, connections do not), or ends every client's
   * connection with {@code pg_terminate_backend} while it keeps running.
   */
  public static ServerFaults of(PostgresServer server) {
    return new ServerFaults() {
      @Override
      public void restart() {
        server.restart();
      }

      @Override
      public void killConnections() {
        server.terminateConnections();
      }

      @Override
      public String toString() {
        return server.toString();
      }
    };
  }

  /**
   * Restarts the MariaDB server over its data (rows survive, connections do not), or ends every client's connection
   * with {@code KILL CONNECTION} while it keeps running.
   */
  public static ServerFaults of(MariaDbServer server) {
    return new ServerFaults() {
      @Override
      public void restart() {
        server.restart();
      }

      @Override
      public void killConnections() {
        server.killConnections();
      }

      @Override
      public String toString() {
        return server.toString();
      }
    };
  }

  /** Kills the primary, promotes the replica and moves the proxy's address to it ({@link RedisReplicatedPair#failover}). */
  public static ServerFaults of(RedisReplicatedPair pair) {
    return failingOver(pair::failover, pair);
  }

  /** Kills the master for the sentinels to promote the replica ({@link RedisSentinelSet#failover}). */
  public static ServerFaults of(RedisSentinelSet sentinels) {
    return failingOver(sentinels::failover, sentinels);
  }

  /**
   * Kills the ensemble's leader, waits for the next one, and starts the killed peer again. The leader is the one that
   * leads once an election under way (after the last fault, or a paused peer's) is over.
   */
  public static ServerFaults of(ZooKeeperEnsemble ensemble) {
    return killingLeader(() -> {
      int killed = ensemble.awaitLeader(ELECTION_TIMEOUT);
      ensemble.stop(killed);
      ensemble.awaitLeader(ELECTION_TIMEOUT);
      ensemble.start(killed);
    }, ensemble.toString());
  }

  /** Kills the cluster's leader (SIGKILL) once it has one, waits for the next one, and starts the killed member again. */
  public static ServerFaults of(EtcdCluster cluster) {
    return killingLeader(() -> {
      int killed = cluster.awaitLeader(ELECTION_TIMEOUT);
      cluster.kill(killed);
      cluster.awaitLeader(ELECTION_TIMEOUT);
      cluster.start(killed);
    }, cluster.toString());
  }

  private static ServerFaults restarting(Runnable restart, String name) {
    return new ServerFaults() {
      @Override
      public void restart() {
        restart.run();
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }

  /** Named as {@code servers} is at the time: a failover swaps which server is the primary. */
  private static ServerFaults failingOver(Runnable failover, Object servers) {
    return new ServerFaults() {
      @Override
      public void failover() {
        failover.run();
      }

      @Override
      public String toString() {
        return servers.toString();
      }
    };
  }

  private static ServerFaults killingLeader(Runnable killLeader, String name) {
    return new ServerFaults() {
      @Override
      public void killLeader() {
        killLeader.run();
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }
}
