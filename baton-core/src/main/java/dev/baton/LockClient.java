package dev.baton;

import java.util.Collection;
import java.util.List;

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
  /** The most locks one {@link #list} call returns. */
  int MAX_LIST_LIMIT = 10_000;

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
   * Returns a handle on all of {@code keys} at once, using this client's default options: its lease holds every key
   * or none. It takes each key's exclusive lock, as {@link #lock(String)} does (the same entry at the store, in the
   * same queues, so a lock and a multi-lock of a key exclude each other), one key after the other in one global order
   * (the keys sorted by Unicode code point, duplicates merged), all within the one wait time of the acquire. Every
   * multi-lock takes its keys in that order, and a lock holds one key, so no two acquires can wait for each other:
   * no deadlock. If a key cannot be had within the wait time, or the acquire is interrupted, cancelled or fails,
   * the keys taken so far are released before it ends as a lock's acquire ends in that case.
   *
   * <p>Its lease ({@link Lease#keys()}, a {@link Lease#fencingToken(String) fencing token per key}) is renewed while
   * held; its hold timeout counts from when every key is held; it ends, and its lost-lock listeners are told once,
   * when any of its keys is lost, and its other keys are then released. Releasing it releases every key. Observers
   * are told of each key's acquire and hold as {@link Primitive#MULTI_LOCK}. A multi-lock of one key is that key's
   * {@link #lock(String)}.
   *
   * @throws IllegalArgumentException if {@code keys} is null or empty, or one of them is null or not acceptable
   */
  DistributedLock multiLock(Collection<String> keys);

  /**
   * As {@link #multiLock(Collection)}, with a handle whose methods use {@code options}.
   *
   * @throws IllegalArgumentException if {@code keys} is null or empty, one of them is null or not acceptable, or the
   *     options are null
   */
  DistributedLock multiLock(Collection<String> keys, LockOptions options);

  /**
   * Returns a handle on the read-write lock named {@code key}, using this client's default options; its write lock is
   * the key's exclusive lock, as {@link #lock(String)} takes it.
   *
   * @throws IllegalArgumentException if the key is not acceptable
   */
  DistributedReadWriteLock readWriteLock(String key);

  /**
   * Returns a handle on the read-write lock named {@code key} whose two sides use {@code options}.
   *
   * @throws IllegalArgumentException if the key is not acceptable or the options are null
   */
  DistributedReadWriteLock readWriteLock(String key, LockOptions options);

  /**
   * Returns a handle on the semaphore named {@code key} with {@code permits} permits, using this client's default
   * options. Every client of the semaphore must give the same number of permits.
   *
   * @throws IllegalArgumentException if the key is not acceptable or {@code permits} is less than 1
   */
  DistributedSemaphore semaphore(String key, int permits);

  /**
   * Returns a handle on the semaphore named {@code key} with {@code permits} permits, whose methods use
   * {@code options}.
   *
   * @throws IllegalArgumentException if the key is not acceptable, {@code permits} is less than 1 or the options
   *     are null
   */
  DistributedSemaphore semaphore(String key, int permits, LockOptions options);

  /**
   * Returns a new candidacy for the leadership named {@code key}, using this client's default options (the ttl bounds
   * how long a crashed leader keeps the name). Call {@link Leadership#start()} to stand; close it to resign.
   *
   * @throws IllegalArgumentException if the key is not acceptable
   */
  Leadership leadership(String key);

  /**
   * Returns a new candidacy for the leadership named {@code key} whose terms use {@code options} (their wait time is
   * ignored: a candidate waits until elected).
   *
   * @throws IllegalArgumentException if the key is not acceptable or the options are null
   */
  Leadership leadership(String key, LockOptions options);

  /**
   * Watches who leads the leadership named {@code key}, without standing: {@code listener} is told the leader (or
   * that nobody leads) once the watch has read it, then each time that changes, on the client's event thread.
   * Stores that watch keys (ZooKeeper, etcd, the in-memory store) tell a change as it happens; the others within half a
   * second. A change back and forth between two readings may be missed; the terms told always grow.
   *
   * @throws IllegalArgumentException if the key is not acceptable or the listener is null
   */
  LeaderWatch watchLeadership(String key, LeaderListener listener);

  /**
   * Asks the store who holds {@code key} now, without waiting or taking anything.
   *
   * @throws IllegalArgumentException if the key is not acceptable
   * @throws BackendUnavailableException if the store cannot be reached
   */
  LockStatus status(String key);

  /**
   * Asks the store which locks are held now whose key starts with {@code keyPrefix}, for an operator's view of what
   * is stuck and where. Returns at most {@code limit} statuses, each {@link LockStatus#isHeld() held}, with its owner,
   * token, {@link LockStatus#holder() holder}, ttl left and waiters as {@link #status} reads them: the first
   * {@code limit} such keys in key order (keys compared by Unicode code point, the order of their UTF-8 bytes).
   * Locks taken or released while it reads may or may not appear; each status is a snapshot of its lock, the list as
   * a whole of the store on Redis (one script reads every listed lock) and etcd (every read at one revision), not on
   * ZooKeeper (one read per node). Locks waited for but not held are not listed.
   *
   * <p>What it costs at the store, besides the reads of the listed locks:
   * <ul>
   *   <li>Redis: {@code SCAN} of the whole database, 1,000 keys a call, matching the lock hashes under the prefix
   *       (a database of a million keys takes a thousand round trips); then one script that reads the listed locks,
   *       and one {@code PUBSUB NUMSUB} for their waiters.
   *   <li>ZooKeeper: one {@code getChildren} per node under the prefix's deepest complete path segment, visited in
   *       key order until {@code limit} locks are found, and one {@code getData} per listed lock.
   *   <li>etcd: range reads of the entries (holders and waiters) under the prefix, in pages, until the entries of
   *       {@code limit} keys are read; one lease time-to-live call per holder's lease (one per client).
   * </ul>
   *
   * @param keyPrefix what the keys start with, checked as keys are; {@code ""} for every lock
   * @param limit how many locks at most, from 1 to {@value #MAX_LIST_LIMIT}
   * @return the held locks, sorted by key
   * @throws IllegalArgumentException if the prefix is null or no key could start with it (control characters, half
   *     a character, longer than a key, or a form the store refuses in a key), or the limit is out of range
   * @throws BackendUnavailableException if the store cannot be reached
   */
  List<LockStatus> list(String keyPrefix, int limit);

  /**
   * Asks every current holder of {@code key} to let go: a mutex's or write lock's holder, every reader, every permit,
   * a leader's term, in whichever client. Their {@link Lease#onReleaseRequested} listeners are told, if they have
   * any; nothing is released unless their code does it. A lease released before the request reaches nobody.
   *
   * @return how many entries at the store were asked (readers of one client that share an entry count once); 0 if the
   *     key is free
   * @throws IllegalArgumentException if the key is not acceptable
   * @throws UnsupportedOperationException if the store cannot deliver requests (a compatibility mode with another
   *     library's locks, whose holders would not hear them)
   * @throws BackendUnavailableException if the store cannot be reached
   */
  int requestRelease(String key);

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

  /**
   * How many keys this client keeps state for in memory: those that one of its threads holds or waits for now.
   * It falls back to zero when they are done, however many keys the client has used: a figure to watch in a
   * service that locks per order or per request, where it should stay near the number of locks held at once.
   */
  int keysInUse();

  /** Whether {@link #close()} was called. */
  boolean isClosed();

  /** Releases every lock this client holds, fails its waiters and stops its threads. Idempotent. */
  @Override
  void close();
}
