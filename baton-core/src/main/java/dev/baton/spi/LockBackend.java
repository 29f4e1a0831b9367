package dev.baton.spi;

import dev.baton.BackendUnavailableException;
import dev.baton.LockHolder;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What a store does for the engine: the wire protocol of one lock algorithm, and nothing else.
 * Reentrancy, timeouts, the watchdog, the per-process queue and lost-lock reporting live in the engine.
 *
 * <p>The engine calls a backend from several threads. Blocking calls are bounded by the backend's own
 * command timeout and throw {@link BackendUnavailableException} when the store cannot be reached.
 */
public interface LockBackend extends AutoCloseable {

  /** A short name for messages: {@code redis}, {@code zookeeper}, {@code etcd}. */
  String name();

  /**
   * Rejects keys this store cannot hold (the engine has already checked for blank, over-long and control
   * characters).
   *
   * @throws IllegalArgumentException naming the key and what is wrong with it
   */
  void checkKey(String key);

  /**
   * Rejects, as an acquire begins (before it queues), acquisitions of {@code key} under {@code rule} that this store's configuration
   * rules out (a compatibility mode with another library's locks that has no such entries, or no non-fair ones).
   * Accepts all by default.
   *
   * @throws IllegalArgumentException or {@link UnsupportedOperationException}, saying what to do instead
   */
  default void checkAcquisition(String key, QueueRule rule, boolean fair) {}

  /**
   * The longest a lease may count as held since its last successful renewal, whatever ttl was asked
   * for. A store whose entries live as long as a client session caps it at the session timeout, so that
   * a lease stops counting as held before the store can expire the session; others need no cap.
   */
  default Duration maxTtl() {
    return LockOptions.MAX_DURATION;
  }

  /**
   * Reads the state of the lock at the store, taking nothing.
   *
   * @throws BackendUnavailableException if the store could not be reached
   */
  LockStatus status(String key);

  /**
   * The locks held now whose key starts with {@code keyPrefix}: the first {@code limit} of them in
   * {@link KeyOrder#BY_CODE_POINT key order}, each read as {@link #status} reads it, without taking anything. The
   * engine has checked the prefix as it checks keys (it may be empty: every key) and the limit (1 to
   * {@link dev.baton.LockClient#MAX_LIST_LIMIT}).
   *
   * @throws IllegalArgumentException if no key this store accepts could start with the prefix
   * @throws BackendUnavailableException if the store could not be reached
   */
  List<LockStatus> list(String keyPrefix, int limit);

  /**
   * Watches the key's entries once: signals {@code changed} (from any thread, never blocking) at the first change
   * after this returns, a holder or waiter come or gone, or when the watch breaks (a lost connection), and then
   * watches no more. The engine watches again before each read of the {@link #status} that a signal makes it do, so
   * that no change is missed between a read and the next watch; it also reads every few seconds besides, so a store
   * may signal more than it must, or miss a change it cannot see (an entry's expiry). A lingering holder
   * ({@link LockOptions.Builder#linger}) takes a signal as another client's interest in the key and lets go, so a
   * store should not signal for what a holder does to its own entry (a renewal). Empty if the store cannot watch: the
   * engine then reads the status on a timer (twice a second for a leadership watch, four times for a lingering
   * entry).
   *
   * @throws BackendUnavailableException if the store could not be reached
   */
  default Optional<KeyWatch> watchKey(String key, WakeUp changed) {
    return Optional.empty();
  }

  /** Starts one acquisition. The attempt owns whatever it leaves at the store until it is granted or abandoned. */
  Attempt newAttempt(AcquireRequest request);

  /**
   * Whether this store can try to take several exclusive entries in one request ({@link #acquireInOrder}). False by
   * default: the engine then takes a multi-lock's keys one request each.
   */
  default boolean acquiresInOrder() {
    return false;
  }

  /**
   * Tries to take the exclusive entries of {@code requests} (two or more, each of another key, each an exclusive
   * request that does not wait), in their order, in one request: each as a single try of {@link #newAttempt} would
   * take it, the first that may not hold at once ending the request, so that the entries taken are those of the
   * first requests. The engine asks it for the keys of a multi-lock that no other thread of this client has or waits
   * for, in the multi-lock's global key order, and then waits for the first key not taken as it waits for any: every
   * multi-lock still holds a prefix of its keys while it waits for the next, so no cycle of waits can form. Only
   * stores whose {@link #acquiresInOrder} is true are asked.
   *
   * @return the grants of the first requests, in order: as many as took their entry, none if the first could not
   * @throws BackendUnavailableException if the store could not be reached; then none of the requests holds an entry:
   *     the store has released what it may have taken, or leaves it to expire with its ttl if it cannot
   */
  default List<Grant> acquireInOrder(List<AcquireRequest> requests) {
    throw new UnsupportedOperationException("The " + name() + " store cannot take several entries in one request;"
        + " the engine asks only stores whose acquiresInOrder() is true.");
  }

  /**
   * Makes a held entry expire {@code ttl} from now (stores whose entries live as long as a session
   * may only check that it is still there). The engine sends the renewals of one watchdog tick together,
   * so this must not block: complete with {@code true} if the entry is still ours, {@code false} if the
   * store no longer holds it for us, exceptionally with {@link BackendUnavailableException} if unknown.
   */
  CompletionStage<Boolean> renew(Grant grant, Duration ttl);

  /**
   * Deletes a held entry, if it is still ours.
   *
   * @return true if it was ours, false if the store no longer held it for us
   * @throws BackendUnavailableException if the store could not be reached; the engine retries
   */
  boolean release(Grant grant);

  /**
   * Deletes a held entry, if it is still ours, as {@link #release} does, and may return before the store has answered:
   * the engine then ends the lease when the answer comes, and the holder goes on meanwhile. A store may return early
   * only if what the holder's process does next cannot tell the release from one already answered: the store applies
   * it before every request this client sends after this returns (a ZooKeeper session's requests are served in order),
   * and every other client of this process that acquires the key, reads its status or lists it after this returns
   * waits for the answer first. Another process may find the entry a round trip longer. The engine asks for it where
   * no caller waits for the answer: the release of a hold of the {@link java.util.concurrent.locks.Lock} methods,
   * whose lease no caller sees. The default releases at once, as {@link #release} does.
   *
   * @return completes with true if the entry was ours, false if the store no longer held it for us, exceptionally with
   *     {@link BackendUnavailableException} if the answer did not come (the engine retries) or with the
   *     {@link dev.baton.LockException} that {@link #release} would have thrown
   * @throws BackendUnavailableException if the release could not be sent; the engine retries
   */
  default CompletionStage<Boolean> releaseInOrder(Grant grant) {
    return CompletableFuture.completedFuture(release(grant));
  }

  /**
   * Ends a chain of local hand-overs (the engine hands a held entry from a releasing thread to the next waiting thread
   * of the same client a bounded number of times in a row, then calls this): keeps the held entry, expiring {@code ttl} from
   * now, if no client other than its holder waits for it at the store, so that the next local waiter may take it
   * without releasing and acquiring it again; otherwise releases it as {@link #release} does. The default, for
   * stores that cannot tell in one request whether others wait, always releases.
   *
   * @throws BackendUnavailableException if the store could not be reached; the engine then releases as usual
   */
  default ChainEnd keepUnlessOthersWait(Grant grant, Duration ttl) {
    return release(grant) ? ChainEnd.RELEASED : ChainEnd.GONE;
  }

  /**
   * Whether this store can rewrite the holder record of an entry it holds ({@link #rewriteHolder}). False by default:
   * the engine then hands an entry over between the threads of a client only where the record written at its grant
   * stays true (a multi-lock's key to a multi-lock over the same keys, a lock's to a lock on its own), and every other
   * waiter takes the key at the store.
   */
  default boolean rewritesHolders() {
    return false;
  }

  /**
   * Writes {@code holder} as the holder record of {@code grant}'s exclusive entry ({@link HolderRecord}, with the
   * grant's owner id where the store keeps it in the record), if the store still holds the entry for us: a write
   * conditioned on that, as a renewal is, which never creates or revives an entry and changes nothing else of it (its
   * expiry, its fencing token as {@link #status} shows it, its place in the queue). The engine calls it after it handed
   * the entry over locally to a holder its record does not name (another multi-lock's key, or a lock on its own), on
   * its background threads, one call per entry at a time; it may block, bounded by the command timeout. Only stores
   * whose {@link #rewritesHolders} is true are called.
   *
   * @return true if the entry was ours and now names {@code holder}, false if the store no longer held it for us
   * @throws BackendUnavailableException if the store could not be reached; the engine tries again after the entry's
   *     next renewal
   */
  default boolean rewriteHolder(Grant grant, LockHolder holder) {
    throw new UnsupportedOperationException("The " + name() + " store cannot rewrite the holder record of "
        + grant.request().lockName() + "; the engine asks only stores whose rewritesHolders() is true.");
  }

  /**
   * Registers the engine's listener for losses the store reports by itself (a ZooKeeper session or an
   * etcd lease expiring). Stores that only learn of losses through {@link #renew} need not call it.
   */
  default void setLossListener(LossListener listener) {}

  /**
   * Asks every current holder of {@code key} (each reader's entry, each permit, a write lock's or a mutex's holder) to
   * release it, by the store's own means, addressed to the client that holds each entry (its owner id starts with the
   * client's id); a holder's client hears it through its {@link ReleaseRequestListener} if it
   * {@link #listenForReleaseRequests listens}. Releases nothing: a request is a hint to the holder's code.
   *
   * @return how many entries were asked: the holders found at the store, whether their clients listen or not
   * @throws UnsupportedOperationException if this store cannot deliver requests, saying so
   * @throws BackendUnavailableException if the store could not be reached
   */
  default int requestRelease(String key) {
    throw new UnsupportedOperationException("The " + name() + " store cannot ask the holder of '" + key
        + "' to release it; release it from the holder's own process.");
  }

  /**
   * Registers the engine's listener for requests to release ({@link #requestRelease}) that reach this client. Called
   * once, as the client is made; nothing is delivered until {@link #listenForReleaseRequests}.
   */
  default void setReleaseRequestListener(ReleaseRequestListener listener) {}

  /**
   * Makes sure requests to release {@code grant}'s entry reach the {@link ReleaseRequestListener} from now on: the
   * engine calls it when a lease on the entry first wants to hear them, so that an acquire costs nothing extra. A store
   * that addresses requests to a client starts listening at its first call, once for the client (later calls return
   * at once); one that addresses them to an entry watches that entry. Returns once a request sent from now on is
   * delivered. Whatever it sets up ends with the entry or with {@link #close}, leaving nothing at the store.
   *
   * @throws BackendUnavailableException if the store could not be reached; a later call tries again
   */
  default void listenForReleaseRequests(Grant grant) {}

  /** Closes connections and stops the backend's threads. Entries still held are left to expire. */
  @Override
  void close();
}
