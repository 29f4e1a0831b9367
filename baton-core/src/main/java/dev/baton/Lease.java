package dev.baton;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One holding of a lock, from the moment it is granted until it is released, expires or is lost.
 *
 * <p>A lease is not bound to a thread: any thread may release it, once; later calls to
 * {@link #close()} do nothing. Use it in try-with-resources:
 *
 * <pre>{@code
 * try (Lease lease = lock.acquire(Duration.ofSeconds(5))) {
 *   lease.onLost(reason -> abortWork());
 *   store.write(row, lease.fencingToken());
 * }
 * }</pre>
 */
public interface Lease extends AutoCloseable {

  /**
   * The key of the lock this lease holds; for a lease of {@link LockClient#multiLock}, the first of its
   * {@link #keys()}.
   */
  String key();

  /**
   * Every key this lease holds, in the order they were taken: this lease's {@link #key()} alone, or the keys of a
   * {@link LockClient#multiLock} in its global order (by Unicode code point, as {@link LockClient#list} sorts them).
   */
  default List<String> keys() {
    return List.of(key());
  }

  /**
   * The fencing token of {@code key}, one of {@link #keys()}: give each resource the token of its own key. For a
   * lease of one key, {@link #fencingToken()}.
   *
   * @throws IllegalArgumentException if {@code key} is not one of this lease's keys
   */
  default long fencingToken(String key) {
    if (!key().equals(key)) {
      throw new IllegalArgumentException("This lease holds '" + key() + "', not '" + key + "': ask for the token of"
          + " one of its keys " + keys() + ".");
    }
    return fencingToken();
  }

  /**
   * The id this lease is written under at the store: the client id and a per-client sequence. A lease
   * handed over to the next thread of the same client without a round trip to the store keeps the id of
   * the lease it was handed over from. Each key of a {@link LockClient#multiLock} has an entry and an owner id of
   * its own at the store; its lease's is that of its first key.
   */
  String ownerId();

  /**
   * A number that grows with every acquisition of this key at the store. Give it to the resource the
   * lock protects, and let the resource reject writes with a smaller token than one it has seen: that
   * stops a holder that was paused past its ttl from overwriting its successor's work.
   *
   * <p>When a holder releases while another thread of the same client waits for the key, the entry at
   * the store may be handed over to that thread without a round trip (a bounded number of times in a row, so that
   * other processes get their turn): the successor then has the same token. The
   * predecessor has released by then, so the two never hold at once; a resource that accepts a token
   * equal to the highest it has seen (and rejects smaller ones) stays safe.
   *
   * <p>A lease of {@link LockClient#multiLock} has a token per key ({@link #fencingToken(String)}); this is the
   * largest of them.
   */
  long fencingToken();

  /**
   * Whether the lock is still ours. Turns false when the lease is released, when its hold timeout
   * passes, and when renewal has failed for so long that the store may have given the lock to someone
   * else, which happens before anyone else can acquire it.
   */
  boolean isHeld();

  /** Where the lease is in its life. */
  LeaseState state();

  /**
   * Calls {@code listener} once if this lease ends other than by {@link #close()}: it was lost, its
   * hold timeout passed, or its client was closed. If that already happened, calls it at once. Listeners
   * run on the client's event thread, one at a time and in order, never on a store's I/O thread: one that
   * blocks delays the listeners and observers after it, not the renewal of any lock.
   *
   * @throws IllegalArgumentException if the listener is null
   */
  void onLost(LockLostListener listener);

  /**
   * Calls {@code listener} each time someone asks the holder of this lease to let go ({@link LockClient#requestRelease},
   * {@code baton revoke}) while it is held: once per request, on the client's event thread, as {@link #onLost}
   * listeners run. A request is a hint, never a loss: the lease stays held unless the listener (or other code of the
   * holder) closes it. Requests that arrived before the listener was added are not replayed: add it right after the
   * acquire.
   *
   * <p>The first call for a lease makes sure the client hears requests for it: the client's first costs a round trip
   * or two (a subscription, a {@code LISTEN}, a watch, kept until the client closes), later ones nothing (with
   * ZooKeeper's {@code compat=curator}, a watch on the lease's own node as well). A lock handed over to
   * another thread of the same client, or joined by another reader, is one entry at the store: a request reaches every
   * lease on it. On a store that cannot deliver requests ({@link LockClient#requestRelease} says so) the listener is
   * never called.
   *
   * @throws IllegalArgumentException if the listener is null
   * @throws BackendUnavailableException if the store could not be reached to start listening; the listener is kept,
   *     and a later call tries again
   */
  void onReleaseRequested(Runnable listener);

  /**
   * How long until the hold timeout ends this lease ({@link LockOptions#withHoldTimeout}, moved by {@link #extendHold}):
   * empty if it was acquired without one (it is renewed while held) or is no longer held.
   */
  Optional<Duration> holdRemaining();

  /**
   * Moves the hold timeout of this lease to {@code holdFor} from now, later or sooner than it was: the lock
   * then frees itself at the new time unless it is released first. Only for leases acquired with a hold
   * timeout ({@link LockOptions#withHoldTimeout}). The lease, its owner id and its fencing token stay the same.
   *
   * <p>Returns at once: a renewal goes to the store right away so that the store's expiry follows the new
   * end, and the watchdog renews the lock until then as for any lease. If the store turns out to have lost
   * the lock meanwhile, the lease ends as lost and its {@link #onLost} listeners are told.
   *
   * @param holdFor how long from now the lock may still be held, from 1 ms to 365 days
   * @return true if the hold timeout moved; false if the lease is no longer held (released, expired or lost)
   * @throws IllegalArgumentException if {@code holdFor} is null, shorter than 1 ms or longer than 365 days
   * @throws IllegalStateException if the lease was acquired without a hold timeout
   */
  boolean extendHold(Duration holdFor);

  /**
   * Releases the lock at the store. Does nothing if the lease is no longer held. A store that cannot be reached gets
   * the release later, in the background.
   *
   * @throws PermissionDeniedException if the store refused the release (a privilege revoked while the lock was
   *     held): the lease is {@link LeaseState#RELEASED} all the same, no longer renewed, and its entry expires at the
   *     store within its ttl
   */
  @Override
  void close();
}
