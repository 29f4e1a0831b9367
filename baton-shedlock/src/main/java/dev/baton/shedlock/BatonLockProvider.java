package dev.baton.shedlock;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ShedLock's {@link LockProvider} on any Baton backend: a scheduled task runs on one node at a time. Its locks
 * can be extended ({@link ExtensibleLockProvider}), so ShedLock's {@code KeepAliveLockProvider} may wrap it.
 *
 * <pre>{@code
 * @Bean
 * BatonLockProvider lockProvider(LockClient client) {
 *   return new BatonLockProvider(client);
 * }
 * }</pre>
 *
 * <p>Lock {@code name} is the Baton key {@code shedlock/name} (or another prefix). {@code lockAtMostFor} is the
 * lease's hold timeout, kept by the store itself: a node that hangs or dies frees the lock when it runs out (a
 * dead node's lock may go sooner, when its ttl or session ends). {@code lockAtLeastFor} defers the release:
 * an unlock before that time keeps the lock until it passes, on a timer of this provider. Locks are not
 * reentrant: a task that asks for a lock its own node holds does not get it.
 *
 * <p>{@link SimpleLock#extend} moves the lease's hold timeout to the new {@code lockAtMostFor}
 * ({@link Lease#extendHold}) and returns a new lock with the new {@code lockAtLeastFor}; the old lock is then
 * spent. It returns empty if the lock was already lost or its {@code lockAtMostFor} had run out.
 *
 * <p>The provider does not own the client: close the client after the provider.
 */
public final class BatonLockProvider implements ExtensibleLockProvider, AutoCloseable {
  /** The prefix of the Baton keys unless told otherwise. */
  public static final String DEFAULT_PREFIX = "shedlock/";
  private static final Logger log = LoggerFactory.getLogger(BatonLockProvider.class);
  private static final Duration SHORTEST_HOLD = Duration.ofMillis(1);

  private final LockClient client;
  private final String prefix;
  private final DeferredReleases deferred = new DeferredReleases();

  /** A provider whose locks are the keys {@code shedlock/NAME} of {@code client}. */
  public BatonLockProvider(LockClient client) {
    this(client, DEFAULT_PREFIX);
  }

  /**
   * A provider whose locks are the keys {@code prefix + NAME} of {@code client}.
   *
   * @throws IllegalArgumentException if the client or the prefix is null
   */
  public BatonLockProvider(LockClient client, String prefix) {
    if (client == null) {
      throw new IllegalArgumentException("The LockClient of a BatonLockProvider must not be null; connect one first.");
    }
    if (prefix == null) {
      throw new IllegalArgumentException("The key prefix of a BatonLockProvider must not be null; use \"\" for none.");
    }
    this.client = client;
    this.prefix = prefix;
  }

  /**
   * Takes the lock if nobody holds it, without waiting.
   *
   * @return the held lock, or empty if another task or node holds it
   * @throws dev.baton.BackendUnavailableException if the store cannot be reached
   */
  @Override
  public Optional<SimpleLock> lock(LockConfiguration configuration) {
    String key = prefix + configuration.getName();
    LockOptions options = client.defaultOptions().withHoldTimeout(holdFor(configuration));
    Optional<Lease> lease = client.lock(key, options).tryAcquire();
    if (lease.isEmpty()) {
      log.debug("Lock '{}' is held elsewhere; task '{}' skipped", key, configuration.getName());
      return Optional.empty();
    }
    log.debug("Lock '{}' (owner {}) taken until {} at most", key, lease.get().ownerId(), configuration.getLockAtMostUntil());
    return Optional.of(new BatonSimpleLock(configuration, lease.get(), deferred));
  }

  /**
   * Stops the timer of deferred releases. Locks still waiting for their {@code lockAtLeastFor} stay held
   * until their {@code lockAtMostFor} runs out or the client is closed. Idempotent.
   */
  @Override
  public void close() {
    deferred.close();
  }

  @Override
  public String toString() {
    return "BatonLockProvider{backend=" + client.backendName() + ", prefix='" + prefix + "'}";
  }

  /** How long the lock of {@code configuration} may be held from now: until its lockAtMostFor, at least 1 ms. */
  static Duration holdFor(LockConfiguration configuration) {
    Duration holdFor = Duration.between(ClockProvider.now(), configuration.getLockAtMostUntil());
    return holdFor.compareTo(SHORTEST_HOLD) < 0 ? SHORTEST_HOLD : holdFor;
  }

  /** When the lock of {@code configuration} may be released: now, or at its lockAtLeastFor. */
  static Duration releaseDelay(LockConfiguration configuration) {
    Instant now = ClockProvider.now();
    Instant earliest = configuration.getLockAtLeastUntil();
    return now.isBefore(earliest) ? Duration.between(now, earliest) : Duration.ZERO;
  }
}
