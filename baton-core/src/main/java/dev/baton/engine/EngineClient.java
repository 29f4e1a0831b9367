package dev.baton.engine;

import dev.baton.DistributedLock;
import dev.baton.DistributedReadWriteLock;
import dev.baton.DistributedSemaphore;
import dev.baton.LeaderListener;
import dev.baton.LeaderWatch;
import dev.baton.Leadership;
import dev.baton.LockClient;
import dev.baton.LockObserver;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.Primitive;
import dev.baton.spi.LockBackend;
import dev.baton.spi.QueueRule;
import dev.baton.spi.Ticker;
import java.security.SecureRandom;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The {@link LockClient} every backend returns: the backend-independent engine around one
 * {@link LockBackend}. Backend modules get it from {@link dev.baton.spi.ClientFactory}; applications see it only
 * as a {@code LockClient}.
 */
final class EngineClient implements LockClient {
  private static final char[] ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Engine engine;
  private final ThreadHolds holds = new ThreadHolds();
  private final LockOptions defaults;

  /**
   * @param backend the store's protocol; closed with this client
   * @param defaults the options of handles from {@link #lock(String)}
   * @param ticker the time the engine runs on, or null for the system's
   */
  EngineClient(LockBackend backend, LockOptions defaults, Ticker ticker) {
    Objects.requireNonNull(backend, "backend");
    this.defaults = Objects.requireNonNull(defaults, "defaults");
    this.engine = new Engine(backend, newClientId(), ticker);
  }

  @Override
  public DistributedLock lock(String key) {
    return lock(key, defaults);
  }

  @Override
  public DistributedLock lock(String key, LockOptions options) {
    return handle(key, QueueRule.EXCLUSIVE, Primitive.LOCK, options);
  }

  @Override
  public DistributedLock multiLock(Collection<String> keys) {
    return multiLock(keys, defaults);
  }

  @Override
  public DistributedLock multiLock(Collection<String> keys, LockOptions options) {
    engine.ensureOpen();
    List<String> sorted = EngineMultiLock.sortedKeys(engine, keys);
    if (options == null) {
      throw new IllegalArgumentException("The options for multi-lock " + sorted + " must not be null; use"
          + " LockOptions.defaults().");
    }
    if (sorted.size() == 1) {
      return lock(sorted.get(0), options);
    }
    return new EngineMultiLock(engine, holds, sorted, options);
  }

  @Override
  public DistributedReadWriteLock readWriteLock(String key) {
    return readWriteLock(key, defaults);
  }

  @Override
  public DistributedReadWriteLock readWriteLock(String key, LockOptions options) {
    return new EngineReadWriteLock(handle(key, QueueRule.SHARED, Primitive.READ_LOCK, options),
        handle(key, QueueRule.EXCLUSIVE, Primitive.WRITE_LOCK, options));
  }

  @Override
  public DistributedSemaphore semaphore(String key, int permits) {
    return semaphore(key, permits, defaults);
  }

  @Override
  public DistributedSemaphore semaphore(String key, int permits, LockOptions options) {
    if (permits < 1) {
      throw new IllegalArgumentException("Semaphore '" + key + "' needs at least 1 permit but was given " + permits
          + ".");
    }
    return new EngineSemaphore(handle(key, QueueRule.permits(permits), Primitive.SEMAPHORE, options), permits);
  }

  @Override
  public Leadership leadership(String key) {
    return leadership(key, defaults);
  }

  @Override
  public Leadership leadership(String key, LockOptions options) {
    return new EngineLeadership(engine, handle(key, QueueRule.EXCLUSIVE, Primitive.LEADERSHIP, options));
  }

  /** A handle on {@code key} taking entries under {@code rule} for {@code primitive}, after the checks every handle gets. */
  private EngineLock handle(String key, QueueRule rule, Primitive primitive, LockOptions options) {
    engine.ensureOpen();
    engine.checkKey(key);
    if (options == null) {
      throw new IllegalArgumentException("The options for '" + key + "' must not be null; use LockOptions.defaults().");
    }
    return new EngineLock(engine, holds, key, rule, primitive, options);
  }

  @Override
  public int keysInUse() {
    return engine.keysInUse();
  }

  @Override
  public LeaderWatch watchLeadership(String key, LeaderListener listener) {
    engine.ensureOpen();
    engine.checkKey(key);
    if (listener == null) {
      throw new IllegalArgumentException("The leader listener of '" + key + "' must not be null.");
    }
    return engine.watchLeadership(key, listener);
  }

  @Override
  public LockStatus status(String key) {
    engine.ensureOpen();
    engine.checkKey(key);
    return engine.backend().status(key);
  }

  @Override
  public List<LockStatus> list(String keyPrefix, int limit) {
    engine.ensureOpen();
    KeyChecks.checkPrefix(keyPrefix);
    if (limit < 1 || limit > MAX_LIST_LIMIT) {
      throw new IllegalArgumentException("The limit of a list must be between 1 and " + MAX_LIST_LIMIT + " but was "
          + limit + "; narrow the key prefix to see fewer locks.");
    }
    return engine.backend().list(keyPrefix, limit);
  }

  @Override
  public int requestRelease(String key) {
    engine.ensureOpen();
    engine.checkKey(key);
    return engine.backend().requestRelease(key);
  }

  @Override
  public LockOptions defaultOptions() {
    return defaults;
  }

  @Override
  public String clientId() {
    return engine.clientId();
  }

  @Override
  public String backendName() {
    return engine.backend().name();
  }

  @Override
  public void observe(LockObserver observer) {
    engine.observers().add(observer);
  }

  @Override
  public boolean isClosed() {
    return engine.isClosed();
  }

  @Override
  public void close() {
    engine.close();
  }

  @Override
  public String toString() {
    return "LockClient{" + engine.backend().name() + ", id=" + engine.clientId() + '}';
  }

  /** Twelve random base-36 characters: unique enough across every process that shares a store. */
  private static String newClientId() {
    char[] id = new char[12];
    for (int i = 0; i < id.length; i++) {
      id[i] = ID_ALPHABET[RANDOM.nextInt(ID_ALPHABET.length)];
    }
    return new String(id);
  }
}
