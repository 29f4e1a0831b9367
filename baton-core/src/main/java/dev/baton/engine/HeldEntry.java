package dev.baton.engine;

import dev.baton.BackendUnavailableException;
import dev.baton.LockException;
import dev.baton.LockHolder;
import dev.baton.LockHolder.MultiLock;
import dev.baton.LockOptions;
import dev.baton.LostReason;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.ChainEnd;
import dev.baton.spi.Grant;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this client holds at the store under one grant: the entry, how long it is surely ours, its one renewal stream,
 * the leases riding on it, its linger and its release. A lease ({@link EngineLease}) is one holder's view of an entry; an entry
 * has one lease (a mutex, a write lock, a permit), the next one after a local hand-over, or several readers that
 * joined it ({@link LocalShares}). However many leases ride on it, the entry is renewed once per interval, and
 * released at the store once, by the last lease to leave it.
 *
 * <h2>Invariants</h2>
 *
 * <ol>
 *   <li>The store keeps the entry at least until {@link #validUntil}: it is set from when the request that set the
 *       entry's expiry was sent. No lease on the entry counts as held from then on, so none holds without it.
 *   <li>At most one renewal of the entry is in flight ({@link #renewing}), whatever the number of leases on it.
 *   <li>An entry taken with a hold timeout has its first lease alone on it all its life (no reader joins it, it is
 *       never handed over), and is never renewed past that lease's hold end ({@link #bound}).
 *   <li>The entry ends once ({@link #ended}): when its last lease leaves, which then releases it at the store, or when
 *       it is lost, which ends every lease on it, each told once. After that no lease joins it and it is not renewed.
 *   <li>A hand-over puts the successor on the entry in the leaving lease's place before offering it to the waiter, so
 *       that the entry never lacks a holder, a loss or the client's close reaches the successor while it is handed
 *       over, and the leaving lease holds nothing once the waiter may take it: a successor that lets go at once ends
 *       the entry once. A successor not taken gives its place back to the leaving lease, as if it had not been offered.
 *   <li>A renewal counts only if its answer comes while the entry is valid: one that comes later leaves the entry lost,
 *       as the watchdog would have found it a moment before, since no renewal covered it meanwhile, and a store may
 *       have written it back after it expired and another client took the key. So does the store's keep at the end of
 *       a chain of hand-overs ({@link #handOver}), which renews the entry too: kept too late, it is not handed on.
 *   <li>An exclusive entry keeps its key's local turn ({@link #queue}) from its grant to its end, whichever of its
 *       leases holds it: the turn passes with a hand-over, and is left once ({@link #turnLeft}), by a lease whose end
 *       ended the entry, after that lease's final state is written; or, when the store's answer to its release may come
 *       later ({@link #releaseInOrder}, {@link #releaseAhead}), once the release is sent, before the answer writes that
 *       state: this client's next requests reach the store after it.
 *   <li>A lingering entry ({@link #lingering}) has no lease on it, has left the key's local turn, and is found by its
 *       local key in the engine ({@link Engine#resumeLingering}) while it lingers. It stops lingering once per linger,
 *       under this object's monitor: taken again ({@link #resume}: a new lease, with the taker's turn, the entry
 *       renewed all along; never once the linger's bound has come, {@link #lingerEndsAt}, whether its timer ran or
 *       not) or ended ({@link #endLingering}, {@link #lose}). Only an exclusive entry taken with a linger and without a
 *       hold timeout lingers, and only while valid for more than a third of its ttl.
 *   <li>Once another client waits for the key or asked for it ({@link #yielding}), the entry is neither handed over
 *       nor kept lingering again: it is released at once if it lingers, else by its holder's release.
 *   <li>The entry's holder record at the store names the multi-lock it is held for ({@link #heldFor}), or is being
 *       rewritten to: where the store cannot rewrite it, the entry passes only to a holder for the same keys (or none),
 *       so it never changes; where it can, a hand-over to a holder for other keys sets {@link #heldFor} before the
 *       waiter may run, and a rewrite follows ({@link #rewriteRecord}): at most one in flight ({@link #rewriting}),
 *       conditioned at the store on the entry being ours, each sending the latest {@link #heldFor}, so that the record
 *       names the holder's keys one write after the hand-over, and no rewrite creates or revives an entry.
 * </ol>
 *
 * <h2>Who writes what</h2>
 *
 * <ul>
 *   <li>{@link #holders}, {@link #ended}, {@link #lossReason}, {@link #joins}: under this object's monitor, by the
 *       acquiring thread (a reader joining, the first lease), the releasing holder (leaving, handing over) and the
 *       thread that loses the entry (the watchdog, the store's I/O thread).
 *   <li>{@link #validUntil}: by the thread that completes a renewal (the store's I/O thread), one at a time, and by the
 *       releasing holder when the store kept the entry at the end of a chain of hand-overs.
 *   <li>{@link #nextRenewalAt}: by the thread that sends a renewal, the one that completes it with a failure, and the
 *       releasing holder when the store kept the entry.
 *   <li>{@link #handovers}: by the holder of an exclusive entry as it hands it over, before the waiter may take it
 *       (and back if the waiter did not); one lease at a time hands the entry over.
 *   <li>{@link #bound}: once, by the acquiring thread, before the entry is watched or its lease returned.
 *   <li>{@link #turnLeft}: once, by the lease whose end passes the key's local turn on.
 *   <li>{@link #listening}: once, to true, by the first lease to want requests to release, under its own monitor.
 *   <li>{@link #lingering}, {@link #lingerTimer}, {@link #lingerWatch}: under this object's monitor, by the releasing
 *       holder (lingering), the acquirer that takes the entry again, and the thread that ends the linger (the timer's
 *       background thread, the watch's, the closing client's, the one that loses the entry).
 *   <li>{@link #lingerEndsAt}: by the releasing holder as the entry starts to linger, under this object's monitor.
 *   <li>{@link #yielding}: once, to true, by the linger watch or the thread that delivers a request to release.
 *   <li>{@link #lingerNanos} and {@link #queue}: by the acquiring thread, at the grant or as it takes the entry again
 *       with the key's turn.
 *   <li>{@link #heldFor}: at the grant, then by the holder that hands the entry over, under the key's local queue's
 *       lock, before the waiter may run.
 *   <li>{@link #recorded}: at the grant, then by the thread whose rewrite the store took, under {@link #rewriting}.
 *   <li>Everything else is final.
 * </ul>
 *
 * <p>A multi-lock's lease ({@link MultiLease}) holds one ordinary lease on each of several entries, and needs nothing
 * of this class but the keys its holder record names ({@link #heldFor}). A lingering entry is one that
 * {@link #release} keeps, instead of releasing it, when its last lease leaves: a hand-over to a future local acquirer.
 * A request to release reaches the entry ({@link #releaseRequested}), which tells each of its {@link #holders}.
 */
final class HeldEntry {
  private static final Logger log = LoggerFactory.getLogger(HeldEntry.class);
  private static final long MIN_RETRY_NANOS = 10_000_000L;
  private static final long MAX_RETRY_NANOS = 1_000_000_000L;

  /**
   * How many times in a row a fair lock may change hands between the threads of one client. A fair lock's waiters
   * in other processes go first once the chain ends (ZooKeeper's fair lock and etcd queue them in order, Redis's
   * fair lock yields them the turn). On two cores a hand-over between threads costs about 20 µs of wake-up, a cycle
   * at the store one or two round trips: 64 turns per cycle keep a hot key near the local limit, while another
   * process waits at most 64 critical sections longer than its fair turn.
   */
  private static final int MAX_IN_A_ROW = 64;

  /**
   * The same bound for a non-fair lock, whose waiters race for it when it is free: the process that just released
   * is the first to try again, so its chains are kept shorter, to leave the other processes their share.
   */
  private static final int MAX_IN_A_ROW_WHEN_RACING = 16;

  /** How many readers may join one entry, so that a writer of another process waits at most that many more reads. */
  private static final int MAX_JOINS = 64;

  /** How a lease's leaving went, for what it is told and whether it passes its key's local turn on. */
  enum Departure {
    /** The next local waiter took the entry over, with the key's turn: it stays at the store. */
    HANDED_OVER,
    /** Other leases still ride on the entry: it stays at the store for them. */
    LEFT_TO_OTHERS,
    /** The entry was ours until released: at the store, or by the store at the end of a chain of hand-overs. */
    RELEASED,
    /** The store no longer held the entry for us, or it was lost already. */
    GONE,
    /** The entry lingers: held at the store for the next acquirer of this client, the key's turn given up. */
    LINGERING
  }

  private final Engine engine;
  private final Grant grant;
  /** The name of the key's local queue: see {@link Engine}. */
  private final String localKey;
  /**
   * The key's local queue, whose turn an exclusive entry keeps while held and may hand over; else null. A lingering
   * entry is taken again under the turn of a queue made anew if the key was left unused meanwhile.
   */
  private volatile LocalQueue queue;
  private final long ttlNanos;
  private final long renewEveryNanos;
  private final Set<EngineLease> holders = new LinkedHashSet<>();
  private volatile boolean ended;
  private LostReason lossReason;
  private int joins;
  /** How many times the entry changed hands locally since it was taken, or last kept, at the store. */
  private int handovers;
  /** The lease whose hold timeout bounds the entry's renewals, alone on it; null if it was taken without one. */
  private EngineLease bound;
  /** Set once, by the lease whose end passes the key's local turn on. */
  private final AtomicBoolean turnLeft = new AtomicBoolean();
  private final AtomicBoolean renewing = new AtomicBoolean();
  /** Whether the store delivers requests to release this entry to the client: set once it does. */
  private final AtomicBoolean listening = new AtomicBoolean();
  private final AtomicBoolean renewAgain = new AtomicBoolean();
  private volatile long validUntil;
  private volatile long nextRenewalAt;
  /** How long the entry lingers after its last lease left, as the options of its last acquirer asked; 0 for not. */
  private volatile long lingerNanos;
  /** Whether the entry lingers: held at the store with no lease on it, for an acquirer of this client to take. */
  private boolean lingering;
  /** When the linger under way reaches its bound: from then on the entry is not taken again, timer or not. */
  private volatile long lingerEndsAt;
  /** Set once another client waits for the key, or asked for it: the entry is no longer re-granted locally. */
  private volatile boolean yielding;
  /** Ends the linger under way when it has lasted its bound; null while the entry does not linger. */
  private Future<?> lingerTimer;
  /** Looks out for other clients' waiters from the grant of an entry taken to linger to its end; null for others. */
  private volatile LingerWatch lingerWatch;
  /** The multi-lock whose keys the entry's holder holds it for now; empty for a lock on its own. */
  private volatile Optional<MultiLock> heldFor;
  /** The multi-lock the holder record at the store names, as its grant or the last rewrite the store took wrote it. */
  private volatile Optional<MultiLock> recorded;
  /** Whether a rewrite of the holder record is in flight: one at a time. */
  private final AtomicBoolean rewriting = new AtomicBoolean();

  /**
   * @param localKey the name of the key's local queue
   * @param queue the local queue whose turn an exclusive entry keeps while held; null for other entries
   * @param sentAt when the request that was granted was sent: the store's expiry runs from later
   * @param lingerNanos how long the entry lingers after its last lease leaves; 0 for not, as for any but a mutex
   */
  HeldEntry(Engine engine, Grant grant, String localKey, LocalQueue queue, long sentAt, long lingerNanos) {
    this.engine = engine;
    this.grant = grant;
    this.localKey = localKey;
    this.queue = queue;
    AcquireRequest request = grant.request();
    this.ttlNanos = request.ttl().toNanos();
    this.renewEveryNanos = ttlNanos / 3;
    this.validUntil = sentAt + request.entryTtl().toNanos();
    this.nextRenewalAt = sentAt + renewEveryNanos;
    this.lingerNanos = lingerNanos;
    this.heldFor = request.holder().multiLock();
    this.recorded = heldFor;
  }

  /** The entry's first lease, held from {@code sentAt}, with the hold timeout of the request if it has one. */
  synchronized EngineLease firstLease(long sentAt) {
    Duration holdTimeout = grant.request().holdTimeout();
    EngineLease first = new EngineLease(this, sentAt, holdTimeout == null ? 0 : sentAt + holdTimeout.toNanos());
    holders.add(first);
    if (holdTimeout != null) {
      bound = first;
    }
    return first;
  }

  Engine engine() {
    return engine;
  }

  Grant grant() {
    return grant;
  }

  String localKey() {
    return localKey;
  }

  /** Whether the entry has ended: released by its last lease, or lost. */
  boolean hasEnded() {
    return ended;
  }

  /** The leases riding on the entry now. */
  synchronized List<EngineLease> holders() {
    return List.copyOf(holders);
  }

  /**
   * A new lease for a reader with {@code options} (its ttl capped as the store caps it: {@code ttl}) that joins this
   * shared entry; null if it may not: the entry ended, took {@value #MAX_JOINS} joins already, was taken on other
   * terms (a hold timeout, another ttl or fairness) or has less than a third of its ttl of validity left.
   */
  synchronized EngineLease join(LockOptions options, Duration ttl) {
    AcquireRequest request = grant.request();
    if (ended || joins >= MAX_JOINS || bound != null || options.holdTimeout().isPresent()
        || !request.ttl().equals(ttl) || request.fair() != options.fair()
        || !isValidAt(engine.time().now() + ttlNanos / 3)) {
      return null;
    }
    EngineLease joiner = new EngineLease(this, engine.time().now(), 0);
    holders.add(joiner);
    joins++;
    return joiner;
  }

  /**
   * {@code leaving} lets go of the entry: hands it to the next local waiter if {@code mayHandOver} and the terms
   * allow, or leaves it to the other leases on it, or, as the last, releases it at the store. A store that cannot be
   * reached is retried later. A store that refuses the release (a privilege revoked while the lock was held) keeps
   * the entry until it expires: it is no longer renewed, so that is within a ttl, which the exception says.
   *
   * @throws LockException if the store refused the release
   */
  Departure release(EngineLease leaving, boolean mayHandOver) {
    Departure departure = letGo(leaving, mayHandOver);
    return departure != null ? departure : releaseAtStore() ? Departure.RELEASED : Departure.GONE;
  }

  /**
   * As {@link #release} with a hand-over allowed, for a lease no caller sees (a hold of the Lock methods): if
   * {@code leaving} is the last lease, the store's release may still be on its way when this returns
   * ({@link dev.baton.spi.LockBackend#releaseInOrder}), and the departure completes with its answer. A store that
   * cannot be reached, or no answer, is retried later as {@link #release} retries; a refusal that comes as an answer
   * is logged (the lease has no caller left to throw to), and the entry expires at the store.
   *
   * @throws LockException if the store refused the release before this returned
   */
  CompletionStage<Departure> releaseInOrder(EngineLease leaving) {
    return releaseAhead(leaving).exceptionally(refusedAndLogged -> Departure.RELEASED);
  }

  /**
   * As {@link #releaseInOrder}, but a refusal that comes as an answer fails the departure with the
   * {@link LockException} that {@link #release} would have thrown (logged as that logs it): for a release whose
   * caller waits for the answer, sent together with others ({@link MultiLease#release}).
   *
   * @throws LockException if the store refused the release before this returned
   */
  CompletionStage<Departure> releaseAhead(EngineLease leaving) {
    Departure departure = letGo(leaving, true);
    if (departure != null) {
      return CompletableFuture.completedFuture(departure);
    }
    CompletionStage<Boolean> answer;
    try {
      answer = engine.backend().releaseInOrder(grant);
    } catch (BackendUnavailableException e) {
      retryRelease();
      return CompletableFuture.completedFuture(Departure.RELEASED);
    } catch (LockException refused) {
      throw refusedRelease(refused);
    }
    return answer.handle((ours, error) -> {
      Throwable cause = error instanceof CompletionException wrapped && wrapped.getCause() != null
          ? wrapped.getCause() : error;
      if (cause == null) {
        return Boolean.FALSE.equals(ours) ? Departure.GONE : Departure.RELEASED;
      }
      if (cause instanceof LockException refused && !(cause instanceof BackendUnavailableException)) {
        throw new CompletionException(refusedRelease(refused));
      }
      retryRelease();
      return Departure.RELEASED;
    });
  }

  /**
   * Lets {@code leaving} go as {@link #release} does, but for the release at the store: null if the entry has ended
   * by it, and the store's entry is to be released.
   */
  private Departure letGo(EngineLease leaving, boolean mayHandOver) {
    if (mayHandOver && queue != null) {
      Handover handover;
      try {
        handover = handOver(leaving);
      } catch (RuntimeException e) {
        leave(leaving);
        throw e;
      }
      switch (handover) {
        case HANDED_OVER:
          return Departure.HANDED_OVER;
        case RELEASED:
          leave(leaving);
          return Departure.RELEASED;
        case GONE:
          leave(leaving);
          return Departure.GONE;
        case NONE:
          break;
      }
      if (linger(leaving)) {
        return Departure.LINGERING;
      }
    }
    if (!leave(leaving)) {
      return isLost() ? Departure.GONE : Departure.LEFT_TO_OTHERS;
    }
    return null;
  }

  /**
   * A lease has left, its final state written: passes the key's local turn on unless the lease handed it over (a
   * lingering entry gives the turn up: the next acquirer takes the entry again under its own), and lets go of the key.
   */
  void left(Departure departure) {
    if (departure != Departure.HANDED_OVER && departure != Departure.LEFT_TO_OTHERS) {
      leaveTurn();
    }
    engine.forget(localKey);
  }

  /** Passes the key's local turn on, once: the entry has ended. */
  private void leaveTurn() {
    if (queue != null && turnLeft.compareAndSet(false, true)) {
      queue.leave();
    }
  }

  /** Why the entry was lost, if it was; else what a lease finds when the store no longer had it. */
  synchronized LostReason lossReason() {
    return lossReason == null ? LostReason.ENTRY_REMOVED : lossReason;
  }

  private synchronized boolean isLost() {
    return lossReason != null;
  }

  /**
   * Takes {@code lease} off the entry; true if it was the last, and the entry has ended by it: then it is no longer
   * renewed and no lease joins it. False if the entry had ended already.
   */
  private boolean leave(EngineLease lease) {
    synchronized (this) {
      holders.remove(lease);
      if (ended || !holders.isEmpty()) {
        return false;
      }
      ended = true;
    }
    stop();
    return true;
  }

  private void stop() {
    engine.watchdog().unwatch(this);
    engine.shares().close(this);
    engine.dropEntry(this);
    engine.forgetLingering(localKey, this);
    Future<?> timer;
    LingerWatch watch;
    synchronized (this) {
      timer = lingerTimer;
      lingerTimer = null;
      watch = lingerWatch;
    }
    if (timer != null) {
      timer.cancel(false);
    }
    if (watch != null) {
      watch.close();
    }
  }

  /**
   * Leaves the entry lingering instead of releasing it, if {@code leaving} is its last lease, the entry was taken to
   * linger and may still: no other client waits or asked for it, the client is open and the entry has more than a
   * third of its ttl of validity left. It stays renewed, and is offered to the next acquirer of this client that takes
   * the key's turn ({@link #resume}) until its linger ends ({@link #endLingering}). True if it lingers now.
   */
  private boolean linger(EngineLease leaving) {
    long linger = lingerNanos;
    long now = engine.time().now();
    if (linger == 0 || yielding || bound != null || engine.isClosed() || !isValidAt(now + ttlNanos / 3)) {
      return false;
    }
    long endsAt = now + linger;
    synchronized (this) {
      if (ended || yielding || holders.size() != 1 || !holders.contains(leaving)) {
        return false;
      }
      holders.remove(leaving);
      lingering = true;
      lingerEndsAt = endsAt;
      engine.lingers(localKey, this); // before the turn is left, so that the next acquirer finds it
    }
    Future<?> timer = engine.lingerTimer(this, endsAt);
    synchronized (this) {
      if (lingering && timer != null) {
        lingerTimer = timer;
        timer = null;
      }
    }
    if (timer != null) {
      timer.cancel(false); // taken again, or ended, meanwhile
    }
    if (engine.isClosed()) {
      endLingering(); // the client closed meanwhile, and may not have seen this entry linger
    }
    return true;
  }

  /**
   * Starts looking out for other clients' waiters and requests to release, for an entry taken to linger, from its
   * grant to its end: so that one that comes while the entry is held ends its re-grants at once.
   */
  void watchForOthers() {
    LingerWatch watch = new LingerWatch(engine, this);
    synchronized (this) {
      if (ended) {
        return;
      }
      lingerWatch = watch;
    }
    watch.start();
    engine.inBackground(this::listenForReleaseRequestsQuietly);
  }

  private void listenForReleaseRequestsQuietly() {
    try {
      listenForReleaseRequests();
    } catch (RuntimeException e) {
      log.debug("Listening for requests to release {} failed; another client's waiter still ends its linger",
          grant.request().lockName(), e);
    }
  }

  /**
   * A new lease on this lingering entry, with the same fencing token, for an acquirer of this client that has the
   * key's turn in {@code turn}, which the entry keeps from now on; no round trip. Null if the entry no longer lingers,
   * or if it may not be taken on the acquirer's terms (another ttl or fairness, a hold timeout, a key of a multi-lock,
   * which the entry's holder record does not name, less than a third of its ttl of validity left, another client waits
   * for it), or if its linger has reached its bound, its timer not run yet: then its linger is ended, so that the
   * acquirer may queue at the store.
   */
  EngineLease resume(LockOptions options, Duration ttl, Optional<MultiLock> multiLock, LocalQueue turn) {
    AcquireRequest request = grant.request();
    long now = engine.time().now();
    if (yielding || options.holdTimeout().isPresent() || !request.ttl().equals(ttl) || request.fair() != options.fair()
        || !heldFor.equals(multiLock) || !isValidAt(now + ttlNanos / 3) || now - lingerEndsAt >= 0) {
      endLingering();
      return null;
    }
    EngineLease lease = new EngineLease(this, now, 0);
    Future<?> timer;
    synchronized (this) {
      if (!lingering || ended) {
        return null;
      }
      lingering = false;
      holders.add(lease);
      queue = turn;
      turnLeft.set(false);
      lingerNanos = Engine.lingerNanos(options);
      timer = lingerTimer;
      lingerTimer = null;
    }
    engine.forgetLingering(localKey, this);
    if (timer != null) {
      timer.cancel(false);
    }
    return lease;
  }

  /**
   * Ends the linger under way: the idle entry is released at the store (or left to expire if the store refuses).
   * False if it did not linger: taken again meanwhile, or ended.
   */
  boolean endLingering() {
    synchronized (this) {
      if (!lingering || ended) {
        return false;
      }
      lingering = false;
      ended = true;
    }
    stop();
    try {
      releaseAtStore();
    } catch (LockException refused) {
      log.debug("The release of lingering {} was refused", grant.request().lockName(), refused);
    }
    return true;
  }

  /** Whether the entry lingers now, held with no lease on it. */
  synchronized boolean isLingering() {
    return lingering;
  }

  /**
   * Another client waits for the key at the store ({@link LingerWatch}): the entry is no longer re-granted in this
   * client, and is released at once if it lingers, else by its holder's release.
   */
  void othersWait() {
    yielding = true;
    endLingering();
  }

  private boolean releaseAtStore() {
    try {
      return engine.backend().release(grant);
    } catch (BackendUnavailableException e) {
      retryRelease();
      return true;
    } catch (LockException refused) {
      throw refusedRelease(refused);
    }
  }

  private void retryRelease() {
    engine.cleanup().runLater("release of " + grant.request().lockName(), () -> engine.backend().release(grant));
  }

  private LockException refusedRelease(LockException refused) {
    log.warn("The release of lock '{}' (owner {}) was refused; no longer renewed, its entry expires at the store"
        + " within {}", grant.request().key(), grant.request().ownerId(), Durations.format(grant.request().entryTtl()));
    return refused;
  }

  /**
   * Offers the entry to the next local waiter, without a round trip, if there is one, the entry has more than a third
   * of its ttl of validity left and {@code leaving} has no hold timeout (which is counted from each holder's own
   * acquire). Chains are bounded, so that other processes get their turn: after {@link #MAX_IN_A_ROW} hand-overs in a
   * row the store keeps the entry for the next waiter only if no other client waits for it
   * ({@link dev.baton.spi.LockBackend#keepUnlessOthersWait}), and releases it otherwise. The successor is a new lease
   * on this entry, with the same fencing token.
   */
  private Handover handOver(EngineLease leaving) {
    if (engine.isClosed() || ended || yielding || leaving.hasHoldTimeout() || !queue.hasWaiter()
        || !isValidAt(engine.time().now() + ttlNanos / 3)) {
      return Handover.NONE;
    }
    AcquireRequest request = grant.request();
    int chain = handovers + 1;
    if (handovers >= (request.fair() ? MAX_IN_A_ROW : MAX_IN_A_ROW_WHEN_RACING)) {
      long sentAt = engine.time().now();
      ChainEnd end;
      try {
        end = engine.backend().keepUnlessOthersWait(grant, request.ttl());
      } catch (BackendUnavailableException e) {
        return Handover.NONE;
      }
      if (end != ChainEnd.KEPT) {
        return end == ChainEnd.RELEASED ? Handover.RELEASED : Handover.GONE;
      }
      if (!isValidAt(engine.time().now())) {
        lose(LostReason.RENEWAL_FAILED); // kept after the validity ran out, as a late renewal: see the invariants
        return Handover.GONE;
      }
      validUntil = sentAt + ttlNanos;
      nextRenewalAt = sentAt + renewEveryNanos;
      chain = 0;
    }
    EngineLease successor = new EngineLease(this, engine.time().now(), 0);
    int before = handovers;
    synchronized (this) {
      if (ended) {
        return Handover.NONE;
      }
      // The successor stands in the leaving lease's place before a waiter may take it: taken, it may be released,
      // handed on or lost at once, and the leaving lease must by then hold nothing, or its own release would end the
      // entry a second time, at the store too, where the key's next acquisition may already have an entry. A loss or
      // the client's close meanwhile reaches the successor.
      holders.remove(leaving);
      holders.add(successor);
      handovers = chain; // before the waiter may take it, and hand it on in turn
    }
    // Not under the monitor: the waiter woken here releases soon after, and would wait for it.
    HandoverTerms terms = HandoverTerms.of(request, heldFor, engine.backend().rewritesHolders());
    // Taken only while the entry lasts: a loss meanwhile (ended is set before the loss leaves the key's turn, which
    // needs the queue's lock held here) passed the turn on to the first waiter already.
    if (queue.handOver(terms, successor, waiter -> {
      if (ended) {
        return false;
      }
      heldFor = waiter.multiLock();
      return true;
    })) {
      rewriteRecord();
      return Handover.HANDED_OVER;
    }
    synchronized (this) {
      handovers = before;
      if (holders.remove(successor)) {
        holders.add(leaving); // not taken: the leaving lease goes on as the holder
      }
      // Otherwise the entry ended while the successor stood in (lost, or the client closed): the leaving lease,
      // no holder, finds it so as it goes on.
    }
    return Handover.NONE;
  }

  /**
   * Rewrites the holder record at the store if it names other keys than the entry is held for now
   * ({@link dev.baton.spi.LockBackend#rewriteHolder}), on a background thread, unless a rewrite is in flight: that one
   * sends another when it is done if the keys changed meanwhile, so the latest keys win. A rewrite that fails is tried
   * again after the entry's next renewal; one that finds the entry gone does nothing more: the next renewal finds it
   * so. The record keeps the rest of the grant's holder (host, process, thread, since), as a hand-over always did.
   */
  private void rewriteRecord() {
    if (ended || heldFor.equals(recorded) || !rewriting.compareAndSet(false, true)) {
      return;
    }
    try {
      engine.background().execute(this::sendRecord);
    } catch (RejectedExecutionException closing) {
      rewriting.set(false); // the client closes: its entries are released or left to expire
    }
  }

  private void sendRecord() {
    Optional<MultiLock> sending = heldFor;
    boolean again = true;
    try {
      if (!ended && !sending.equals(recorded)) {
        LockHolder holder = grant.request().holder();
        again = engine.backend().rewriteHolder(grant, new LockHolder(holder.host(), holder.pid(), holder.thread(),
            holder.acquiredAt(), holder.linger(), sending));
        if (again) {
          recorded = sending;
        }
      }
    } catch (RuntimeException e) {
      again = false;
      log.debug("Rewriting the holder record of {} failed; tried again after its next renewal",
          grant.request().lockName(), e);
    } finally {
      rewriting.set(false);
    }
    if (again) {
      rewriteRecord(); // the keys may have changed while this write was in flight
    }
  }

  /**
   * The store no longer holds the entry for us, or may not: every lease on it is lost, without asking the store.
   * Does no I/O, so it is safe on the watchdog and the store's I/O threads; an entry whose renewals failed is released
   * in the background, in case the store still has it.
   */
  void lose(LostReason reason) {
    List<EngineLease> losing;
    synchronized (this) {
      if (ended) {
        return;
      }
      ended = true;
      lingering = false;
      lossReason = reason;
      losing = List.copyOf(holders);
      holders.clear();
    }
    stop();
    log.warn("Lock '{}' (owner {}) lost: {}", grant.request().key(), grant.request().ownerId(), reason);
    if (reason == LostReason.RENEWAL_FAILED) {
      engine.cleanup().runLater("release of lost " + grant.request().lockName(), () -> engine.backend().release(grant));
    }
    losing.forEach(lease -> lease.lose(reason));
  }

  /**
   * Makes sure requests to release this entry reach the client ({@link dev.baton.spi.LockBackend#listenForReleaseRequests}),
   * once per entry: the first lease to want them asks the store, and a failure leaves it to the next.
   */
  void listenForReleaseRequests() {
    if (listening.get() || ended) {
      return;
    }
    synchronized (listening) {
      if (!listening.get()) {
        engine.backend().listenForReleaseRequests(grant);
        listening.set(true);
      }
    }
  }

  /**
   * Someone asked the holder of this entry to release it: every lease on it hears of it. An entry taken to linger is
   * no longer re-granted locally, and released at once if it lingers (on a background thread: this runs on the
   * store's).
   */
  void releaseRequested() {
    if (ended) {
      return;
    }
    if (lingerNanos != 0 || lingerWatch != null) {
      yielding = true;
      engine.inBackground(this::endLingering);
    }
    holders().forEach(EngineLease::releaseRequested);
  }

  boolean isValidAt(long nanos) {
    return nanos - validUntil < 0;
  }

  boolean isRenewalDue(long now) {
    // Renewing up to half an interval early lets entries acquired at different moments share a tick.
    return now - (nextRenewalAt - renewEveryNanos / 2) >= 0;
  }

  /**
   * When the watchdog next looks at the entry: its next renewal, or the end of its validity if that comes first. While
   * a renewal is in flight, the end of its validity only: the renewal due meanwhile waits for the answer, which asks
   * for the check after it ({@link #renewed}); a renewal time already past would have the watchdog tick again at once,
   * and again, until the answer came.
   */
  long nextCheckAt() {
    long valid = validUntil;
    if (renewing.get()) {
      return valid;
    }
    long renewal = nextRenewalAt;
    return renewal - valid < 0 ? renewal : valid;
  }

  /**
   * The watchdog found the entry past its validity: renewals failed for a whole ttl, unless the hold timeout of its
   * lease has come, whose timer ends the lease instead.
   */
  void validityRanOut(long now) {
    EngineLease holdTimed = bound;
    if (holdTimed != null && holdTimed.holdEndedStopping(now)) {
      return;
    }
    lose(LostReason.RENEWAL_FAILED);
  }

  /** A lease on the entry moved its hold end: renews now, or right after the renewal under way. */
  void renewNow() {
    renewAgain.set(true);
    renew(engine.time().now());
  }

  /**
   * Sends one renewal unless one is already under way; never blocks. With a hold timeout, the entry is
   * never extended past it. A renewal asked for while one is under way (the hold end moved) follows it.
   */
  void renew(long sentAt) {
    if (ended || !renewing.compareAndSet(false, true)) {
      return;
    }
    renewAgain.set(false);
    EngineLease holdTimed = bound;
    long expiry = holdTimed == null ? ttlNanos : holdTimed.renewalExpiry(sentAt, ttlNanos);
    if (expiry == 0) {
      renewing.set(false);
      return;
    }
    nextRenewalAt = sentAt + renewEveryNanos;
    try {
      engine.backend().renew(grant, Duration.ofNanos(expiry)).whenComplete((ours, error) -> renewed(sentAt, expiry, ours, error));
    } catch (RuntimeException e) {
      renewed(sentAt, expiry, null, e);
    }
  }

  private void renewed(long sentAt, long expiry, Boolean ours, Throwable error) {
    renewing.set(false);
    if (error == null && Boolean.TRUE.equals(ours)) {
      if (!isValidAt(engine.time().now())) {
        lose(LostReason.RENEWAL_FAILED); // came after the validity ran out: see the invariants
        return;
      }
      validUntil = sentAt + expiry;
      tellRenewed(true);
      rewriteRecord(); // a rewrite that failed is due again
      if (renewAgain.get()) {
        renew(engine.time().now());
      }
      engine.watchdog().tickBy(nextCheckAt()); // the next renewal may be due before the tick the watchdog has set
      return;
    }
    if (error == null) {
      lose(LostReason.ENTRY_REMOVED);
      return;
    }
    tellRenewed(false);
    nextRenewalAt = engine.time().now() + Math.max(MIN_RETRY_NANOS, Math.min(MAX_RETRY_NANOS, renewEveryNanos / 3));
    log.debug("Renewal of {} failed; retrying", grant.request().lockName(), error);
    engine.watchdog().tickBy(nextCheckAt());
  }

  /** Observers hear of a renewal of the entry once, naming one of the leases on it. */
  private void tellRenewed(boolean succeeded) {
    EngineLease holder;
    synchronized (this) {
      holder = holders.isEmpty() ? null : holders.iterator().next();
    }
    if (holder != null) {
      engine.observers().renewed(holder, holder.primitive(), succeeded);
    }
  }

  @Override
  public String toString() {
    return "HeldEntry{key='" + grant.request().key() + "', owner=" + grant.request().ownerId() + ", token="
        + grant.fencingToken() + '}';
  }
}
