package dev.baton.spring.integration;

import dev.baton.DistributedLock;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import org.springframework.integration.support.locks.RenewableLockRegistry;

/**
 * Spring Integration's lock registry on any Baton backend, for aggregators, idempotent receivers, leader
 * election ({@code LockRegistryLeaderInitiator}) and {@code executeLocked}.
 *
 * <pre>{@code
 * @Bean
 * BatonLockRegistry lockRegistry(LockClient client) {
 *   return new BatonLockRegistry(client);
 * }
 * }</pre>
 *
 * <p>{@link #obtain(Object)} returns the {@link DistributedLock} of the key {@code prefix + key.toString()}:
 * owned by the thread that locked it and reentrant, as {@link java.util.concurrent.locks.ReentrantLock} is,
 * and exclusive across every process that uses the same store, prefix and key. An {@code unlock()} from a
 * thread that does not hold it throws {@link IllegalMonitorStateException}.
 *
 * <p>Baton's watchdog renews held locks on its own, so {@link #renewLock(Object)} does not need to be called;
 * it checks that the calling thread still holds the lock. It cannot lengthen a hold timeout
 * ({@link LockOptions#holdTimeout()}) set in the registry's options.
 *
 * <p>The registry does not own the client: close the client when the application stops.
 */
public final class BatonLockRegistry implements RenewableLockRegistry {
  /** The prefix of the Baton keys unless told otherwise. */
  public static final String DEFAULT_PREFIX = "spring-integration/";

  private final LockClient client;
  private final String prefix;
  private final LockOptions options;

  /** A registry of the keys {@code spring-integration/KEY} of {@code client}, with the client's default options. */
  public BatonLockRegistry(LockClient client) {
    this(client, DEFAULT_PREFIX, client == null ? null : client.defaultOptions());
  }

  /**
   * A registry of the keys {@code prefix + KEY} of {@code client}, whose locks use {@code options} (the ttl, a
   * hold timeout, fairness; the {@link java.util.concurrent.locks.Lock} methods decide how long to wait).
   *
   * @throws IllegalArgumentException if an argument is null
   */
  public BatonLockRegistry(LockClient client, String prefix, LockOptions options) {
    if (client == null) {
      throw new IllegalArgumentException("The LockClient of a BatonLockRegistry must not be null; connect one first.");
    }
    if (prefix == null) {
      throw new IllegalArgumentException("The key prefix of a BatonLockRegistry must not be null; use \"\" for none.");
    }
    if (options == null) {
      throw new IllegalArgumentException("The options of a BatonLockRegistry must not be null; use LockOptions.defaults().");
    }
    this.client = client;
    this.prefix = prefix;
    this.options = options;
  }

  /**
   * The lock of {@code lockKey}: a cheap handle, so every call may return a new one; all handles of a key share
   * its state.
   *
   * @throws IllegalArgumentException if the key is null, or Baton cannot use it as a key (blank, too long,
   *     control characters)
   */
  @Override
  public DistributedLock obtain(Object lockKey) {
    if (lockKey == null) {
      throw new IllegalArgumentException("The lock key must not be null; pass the id of what you lock, e.g. an order id.");
    }
    return client.lock(prefix + lockKey, options);
  }

  /**
   * Checks that the calling thread holds the lock of {@code lockKey} and that it is still valid; the watchdog
   * renews it while it is.
   *
   * @throws IllegalStateException if the calling thread does not hold it, or it was lost
   */
  @Override
  public void renewLock(Object lockKey) {
    DistributedLock lock = obtain(lockKey);
    if (!lock.isHeldByCurrentThread()) {
      throw new IllegalStateException("The lock '" + lock.key() + "' on " + client.backendName()
          + " is not held by this thread, or was lost: lock it before renewing it.");
    }
  }

  @Override
  public String toString() {
    return "BatonLockRegistry{backend=" + client.backendName() + ", prefix='" + prefix + "'}";
  }
}
