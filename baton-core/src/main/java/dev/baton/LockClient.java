package dev.baton;

/**
 * A connection to one lock store (a Redis server, a ZooKeeper ensemble, an etcd cluster), from which
 * lock handles are taken.
 *
 * <p>A client is thread-safe and meant to live as long as the application: it holds the store's
 * connection, the watchdog that renews held locks and the per-process queue of waiters. Closing it
 * releases every lock it still holds, wakes its waiters with an {@link IllegalStateException} and stops
 * its background threads.
 */
public interface LockClient extends AutoCloseable {

  /**
   * Returns a handle on the lock named {@code key}, using this client's default options. Handles are
   * cheap and thread-safe; any number may exist for the same key and they share its state.
   *
   * @throws IllegalArgumentException if the key is blank, too long or holds characters the store cannot keep
   */
  DistributedLock lock(String key);

  /**
   * Returns a handle on the lock named {@code key} whose methods use {@code options}; for the
   * {@link java.util.concurrent.locks.Lock} methods this is the only way to set the ttl or a hold timeout.
   *
   * @throws IllegalArgumentException if the key is not acceptable or the options are null
   */
  DistributedLock lock(String key, LockOptions options);

  /**
   * Asks the store who holds {@code key} now, without waiting or taking anything.
   *
   * @throws IllegalArgumentException if the key is not acceptable
   * @throws BackendUnavailableException if the store cannot be reached
   */
  LockStatus status(String key);

  /** The options {@link #lock(String)} handles use unless told otherwise. */
  LockOptions defaultOptions();

  /** A unique id of this client, the first part of every owner id it writes to the store. */
  String clientId();

  /** Which store this client talks to, for messages: {@code redis}, {@code zookeeper}, {@code etcd}. */
  String backendName();

  /**
   * Tells {@code observer} of every acquire, release, loss and renewal of this client's locks from now on; for
   * metrics, register it before taking locks.
   *
   * @throws IllegalArgumentException if the observer is null
   */
  void observe(LockObserver observer);

  /** Whether {@link #close()} was called. */
  boolean isClosed();

  /** Releases every lock this client holds, fails its waiters and stops its threads. Idempotent. */
  @Override
  void close();
}
