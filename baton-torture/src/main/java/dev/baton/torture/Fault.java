package dev.baton.torture;

import java.util.Locale;

/** The faults a torture can inject, each on a recorded schedule. */
public enum Fault {
  /** SIGSTOP a holder for longer than the ttl, then SIGCONT: the process-pause problem. */
  PAUSE,
  /** SIGKILL a holder or a waiter, then start a new worker in its place. */
  KILL,
  /** Stop the store and start it again (needs {@link ServerFaults}). */
  SERVER_RESTART,
  /** Kill the current leader of a ZooKeeper ensemble or etcd cluster (needs {@link ServerFaults}). */
  LEADER_KILL,
  /** Kill a Redis primary and promote its asynchronous replica (needs {@link ServerFaults}). */
  FAILOVER,
  /**
   * The store ends every client's connection, as PostgreSQL's {@code pg_terminate_backend} and MariaDB's
   * {@code KILL CONNECTION} do at an administrator's or a pooler's word (needs {@link ServerFaults}).
   */
  CONNECTION_KILL;

  /**
   * The name on the command line: {@code pause}, {@code kill}, {@code server-restart}, {@code leader-kill},
   * {@code failover}, {@code connection-kill}.
   */
  public String option() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The fault named {@code option} on the command line. */
  public static Fault fromOption(String option) {
    for (Fault fault : values()) {
      if (fault.option().equals(option.trim().toLowerCase(Locale.ROOT))) {
        return fault;
      }
    }
    throw new IllegalArgumentException("Unknown fault '" + option + "'; use pause, kill, server-restart, leader-kill, failover"
        + " or connection-kill.");
  }

  /** Whether the torture needs {@link ServerFaults} to inject this fault. */
  public boolean needsServer() {
    return this != PAUSE && this != KILL;
  }
}
