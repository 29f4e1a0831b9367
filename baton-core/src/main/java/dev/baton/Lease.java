package dev.baton;

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

  /** The key of the lock this lease holds. */
  String key();

  /**
   * The id this lease is written under at the store: the client id and a per-client sequence. A lease
   * handed over to the next thread of the same client without a round trip to the store keeps the id of
   * the lease it was handed over from.
   */
  String ownerId();

  /**
   * A number that grows with every acquisition of this key at the store. Give it to the resource the
   * lock protects, and let the resource reject writes with a smaller token than one it has seen: that
   * stops a holder that was paused past its ttl from overwriting its successor's work.
   *
   * <p>When a holder releases while another thread of the same client waits for the key, the entry at
   * the store may be handed over to that thread without a round trip (at most
   * {@code EngineClient.MAX_LOCAL_HANDOVERS} times in a row): the successor then has the same token. The
   * predecessor has released by then, so the two never hold at once; a resource that accepts a token
   * equal to the highest it has seen (and rejects smaller ones) stays safe.
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
   * run on a background thread of the client and should return quickly.
   *
   * @throws IllegalArgumentException if the listener is null
   */
  void onLost(LockLostListener listener);

  /** Releases the lock at the store. Does nothing if the lease is no longer held. */
  @Override
  void close();
}
