package dev.baton.redis;

import java.time.Duration;

/**
 * How many replicas must have a lock's grant (and each renewal) before it counts: {@code replicas} of them within
 * {@code within}, as Redis's {@code WAIT} reports it; {@link #NONE} to count the master's word alone.
 */
record ReplicaAcks(int replicas, Duration within) {
  /** No acknowledgement asked: a write counts once the master took it. */
  static final ReplicaAcks NONE = new ReplicaAcks(0, Duration.ZERO);

  /** The most replicas one may ask for: more than any deployment has, less than a typo. */
  static final int MAX_REPLICAS = 16;

  /** The least and the most time to wait for them. */
  static final Duration MIN_WITHIN = Duration.ofMillis(1);
  static final Duration MAX_WITHIN = Duration.ofMinutes(1);

  /** How long a grant waits for its replicas unless told otherwise. */
  static final Duration DEFAULT_WITHIN = Duration.ofMillis(500);

  /**
   * The acknowledgement of {@code replicas} within {@code within}, checked.
   *
   * @throws IllegalArgumentException naming the value, if {@code replicas} is not from 0 to {@value #MAX_REPLICAS}
   *     or {@code within} not from 1 ms to 1 min
   */
  static ReplicaAcks of(int replicas, Duration within) {
    if (replicas < 0 || replicas > MAX_REPLICAS) {
      throw new IllegalArgumentException("minReplicas must be from 0 (no acknowledgement) to " + MAX_REPLICAS
          + " but was " + replicas + "; give the number of replicas that must have a grant before it counts.");
    }
    if (within == null || within.compareTo(MIN_WITHIN) < 0 || within.compareTo(MAX_WITHIN) > 0) {
      throw new IllegalArgumentException("The time to wait for replicas must be from 1 ms to 1 min but was " + within
          + "; it bounds each grant's WAIT, e.g. 500 ms.");
    }
    return replicas == 0 ? NONE : new ReplicaAcks(replicas, within);
  }

  /** Whether a write waits for replicas at all. */
  boolean enabled() {
    return replicas > 0;
  }

  /**
   * Checks WAIT's answer for a write to {@code key} at {@code server}.
   *
   * @throws ReplicasBehindException if fewer than {@link #replicas} acknowledged it
   */
  void check(long acknowledged, String key, String server) {
    if (acknowledged < replicas) {
      throw new ReplicasBehindException("Redis " + server + " took the write to '" + key + "', but only "
          + acknowledged + " of the " + replicas + " replicas asked for (minReplicas) acknowledged it within "
          + within.toMillis() + " ms, so it does not count and is given back. Check the replicas (INFO replication"
          + " at the master), or ask for fewer.");
    }
  }
}
