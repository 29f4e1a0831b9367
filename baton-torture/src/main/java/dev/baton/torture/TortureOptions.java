package dev.baton.torture;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * How to torture a backend: the workers connect with {@code factory} to {@code target} in JVMs of their own and
 * contend for {@code primitive} on {@code key}.
 *
 * @param factory makes the workers' clients; needs a public no-argument constructor
 * @param target the store's address, in the factory's own form
 * @param key the key every worker contends for: the lock's, the semaphore's, the leadership's name
 * @param workers how many worker processes run at once
 * @param duration how long faults are injected; the workers then finish their holds and stop
 * @param ttl the locks' ttl: a paused holder stays stopped for twice this long
 * @param faults which faults to inject, one every one to two ttls, in turn
 * @param reportDir where to write the report (summary, JSON, timeline picture), or null for none
 * @param primitive what the workers contend for
 * @param permits the semaphore's permits, from 1 to one fewer than the workers (so that they ask for more than
 *     there are); 1 for the other primitives
 * @param crashBound how long the store may keep what a killed or paused worker held or waited with: the ttl where
 *     entries expire by it (Redis, PostgreSQL, MySQL), the session timeout on ZooKeeper, the lease's on etcd; the
 *     multi-lock progress check leaves that much out after each such fault
 */
public record TortureOptions(Class<? extends LockClientFactory> factory, String target, String key, int workers,
    Duration duration, Duration ttl, Set<Fault> faults, Path reportDir, Primitive primitive, int permits,
    Duration crashBound) {
  /** Options for a store whose entries expire by the ttl: a killed worker's are gone within it. */
  public TortureOptions(Class<? extends LockClientFactory> factory, String target, String key, int workers,
      Duration duration, Duration ttl, Set<Fault> faults, Path reportDir, Primitive primitive, int permits) {
    this(factory, target, key, workers, duration, ttl, faults, reportDir, primitive, permits, ttl);
  }

  /** Checks every value, naming the wrong one. */
  public TortureOptions {
    if (workers < 2 || workers > 64) {
      throw new IllegalArgumentException("workers must be between 2 and 64, but was " + workers + ".");
    }
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("The torture's duration must be positive, but was " + duration + ".");
    }
    if (ttl.toMillis() < 200) {
      throw new IllegalArgumentException("The ttl must be at least 200 ms, but was " + ttl + ".");
    }
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("The key must not be blank.");
    }
    if (primitive == null) {
      throw new IllegalArgumentException("The primitive must not be null.");
    }
    if (primitive == Primitive.SEMAPHORE && (permits < 1 || permits >= workers)) {
      throw new IllegalArgumentException("A semaphore's permits must be from 1 to one fewer than the " + workers
          + " workers, so that they ask for more than there are, but were " + permits + ".");
    }
    if (primitive != Primitive.SEMAPHORE && permits != 1) {
      throw new IllegalArgumentException("Permits are for the semaphore; " + primitive.option() + " takes 1, but was"
          + " given " + permits + ".");
    }
    if (crashBound == null || crashBound.isNegative() || crashBound.isZero()) {
      throw new IllegalArgumentException("The crash bound must be positive (the ttl, or the store's session"
          + " timeout), but was " + crashBound + ".");
    }
    faults = Collections.unmodifiableSet(faults.isEmpty() ? EnumSet.noneOf(Fault.class) : EnumSet.copyOf(faults));
  }

  /** How long a worker waits for the lock before it records a timeout and tries again. */
  Duration waitTime() {
    return ttl.multipliedBy(4);
  }

  /** The longest pause between a worker's read of the register and its write. */
  Duration work() {
    return Duration.ofMillis(Math.max(5, ttl.toMillis() / 20));
  }
}
