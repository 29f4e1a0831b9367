package dev.baton.engine;

import dev.baton.DistributedLock;
import dev.baton.LockClient;
import dev.baton.LockObserver;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.spi.LockBackend;
import java.security.SecureRandom;
import java.util.List;
import java.util.Objects;

/**
 * The {@link LockClient} every backend returns: the backend-independent engine around one
 * {@link LockBackend}. Backend modules construct it; applications see it only as a {@code LockClient}.
 */
public final class EngineClient implements LockClient {
  /**
   * How many times in a row a lock may change hands between the threads of one client without a round
   * trip to a store that then lets the waiters of other clients in first (ZooKeeper's fair lock and etcd queue
   * them in order, Redis's fair lock yields them the turn); then it is released there, and the waiters of
   * other processes get their turn before this process's next thread.
   * On two cores a hand-over between threads costs about 20 µs of wake-up, a cycle at the store one or two
   * round trips: 64 turns per cycle keep a hot key near the local limit, while another process waits at
   * most 64 critical sections longer than its fair turn.
   */
  public static final int MAX_LOCAL_HANDOVERS = 64;

  /**
   * The same bound for a store whose waiters race for a free lock (the non-fair locks of Redis and
   * ZooKeeper): the process that just released is the first to try again, so its chains are kept shorter,
   * to leave the other processes their share.
   */
  public static final int MAX_LOCAL_HANDOVERS_WHEN_RACING = 16;

  private static final char[] ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Engine engine;
  private final ThreadHolds holds = new ThreadHolds();
  private final LockOptions defaults;

  /**
   * @param backend the store's protocol; closed with this client
   * @param defaults the options of handles from {@link #lock(String)}
   */
  public EngineClient(LockBackend backend, LockOptions defaults) {
    Objects.requireNonNull(backend, "backend");
    this.defaults = Objects.requireNonNull(defaults, "defaults");
    this.engine = new Engine(backend, newClientId());
  }

  @Override
  public DistributedLock lock(String key) {
    return lock(key, defaults);
  }

  @Override
  public DistributedLock lock(String key, LockOptions options) {
    engine.ensureOpen();
    engine.checkKey(key);
    if (options == null) {
      throw new IllegalArgumentException("The options for '" + key + "' must not be null; use LockOptions.defaults().");
    }
    return new EngineLock(engine, holds, key, options);
  }

  /** How many times in a row a lock taken with {@code options} may change hands locally on this client's store. */
  public int maxLocalHandovers(LockOptions options) {
    return engine.maxLocalHandovers(options.fair());
  }

  /**
   * How many keys this client keeps state for in memory: those that one of its threads holds or waits for now. It
   * falls back to zero when they are done, however many keys the client used: for diagnostics and leak tests.
   */
  public int keysInUse() {
    return engine.keysInUse();
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

  /** Whether {@link #close()} (or {@link #simulateCrash()}) was called. */
  @Override
  public boolean isClosed() {
    return engine.isClosed();
  }

  @Override
  public void close() {
    engine.close();
  }

  /**
   * Stops this client as a crashed process would, for fault-injection tests: nothing is released and
   * nothing renewed, so the store frees its locks only when they expire.
   */
  public void simulateCrash() {
    engine.crash();
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
