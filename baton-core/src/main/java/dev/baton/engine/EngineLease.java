package dev.baton.engine;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockException;
import dev.baton.LockLostListener;
import dev.baton.LostReason;
import dev.baton.Primitive;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Grant;
import dev.baton.spi.Settings;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life cycle of one grant, whatever the grant is (a lock's entry today, a read lock's or a permit's with the
 * same code): renewal, hold timeout, loss, release and its background retry, in one place.
 *
 * <h2>Invariants</h2>
 *
 * <ol>
 *   <li>The state goes one way: HELD, then exactly one of RELEASED, EXPIRED or LOST, written once. The thread that
 *       sets {@link #ending} (the holder, the hold timer, the watchdog, the store's I/O thread, the client closing)
 *       decides the final state, which may need the store's answer (a release that finds the entry gone ends LOST);
 *       until it is written the lease reads HELD but is no longer {@link #isHeld()}.
 *   <li>{@link #isHeld()} is true only before {@link #validUntil}: a store keeps the entry at least that long after
 *       the request that set it was sent, so the lease stops counting as held before anyone else can hold.
 *   <li>The entry is never renewed past the hold end, and the hold end only moves while the lease is held
 *       ({@link #hold} orders the move against the decisions taken on it).
 *   <li>The key's local turn passes to the next waiter only once the final state is written, except when the
 *       entry is handed over ({@link LocalHandovers}): the successor is a new lease on the same grant, with the
 *       same fencing token, and the predecessor has ended first.
 *   <li>Readers that joined one shared entry ({@link LocalShares}) are leases on one grant at once; the entry is
 *       released at the store only by the last of them to end, so none holds without it.
 *   <li>At most one renewal is in flight; the holder is told of a loss once, on the events thread.
 * </ol>
 *
 * <h2>Who writes what</h2>
 *
 * <ul>
 *   <li>{@link #ending}: once, by whichever thread ends the lease; {@link #state}: by that thread only.
 *   <li>{@link #validUntil}: by the thread that completes a renewal (the store's I/O thread), one renewal at a
 *       time ({@link #renewing}).
 *   <li>{@link #nextRenewalAt}: by the thread that sends a renewal (the watchdog, or a holder moving its hold end)
 *       and by the one that completes it with a failure.
 *   <li>{@link #holdEndsAt} and {@link #holdTimer}: under {@link #hold}, by the holder moving its hold end; the
 *       timer also once by the engine right after the grant, before the lease is returned.
 *   <li>{@link #primitive}: by the acquiring thread, before the lease is returned to the holder; {@link #share}: by
 *       {@link LocalShares}, under its lock, before the lease is returned.
 *   <li>Everything else is final.
 * </ul>
 */
final class EngineLease implements Lease {
  private static final Logger log = LoggerFactory.getLogger(EngineLease.class);
  private static final long MIN_RETRY_NANOS = 10_000_000L;
  private static final long MIN_RENEWAL_NANOS = 2_000_000L;
  private static final long MAX_RETRY_NANOS = 1_000_000_000L;
  private static final Duration MIN_HOLD = Duration.ofMillis(1);

  private final Engine engine;
  private final Grant grant;
  /** The key's local queue, whose turn this lease keeps while held and may hand over: an exclusive one's; else null. */
  private final LocalQueue queue;
  private final LostListeners listeners;
  /** Set once, by the thread that takes the lease out of HELD. */
  private final AtomicBoolean ending = new AtomicBoolean();
  /** HELD, then the final state, written once by the thread that set {@link #ending}. */
  private volatile LeaseState state = LeaseState.HELD;
  private final AtomicBoolean renewing = new AtomicBoolean();
  private final AtomicBoolean renewAgain = new AtomicBoolean();
  /** Guards moves of the hold end against the decisions taken on it: expiring, and no longer renewing. */
  private final Object hold = new Object();
  private final long ttlNanos;
  private final long renewEveryNanos;
  private final boolean holdTimeout;
  private volatile long holdEndsAt;
  private final long grantedSince;
  private final int handovers;
  private volatile long validUntil;
  private volatile long nextRenewalAt;
  private volatile Future<?> holdTimer;
  /** What the holder acquired for, as observers are told: set by the acquiring thread before the lease is returned. */
  private volatile Primitive primitive = Primitive.LOCK;
  /** The leases on the same shared entry, if readers may join it ({@link LocalShares}); guarded there. */
  private LocalShares.Share share;

  /** @param grantedSince when the request that was granted was sent: the store's expiry runs from later */
  EngineLease(Engine engine, Grant grant, LocalQueue queue, long grantedSince) {
    this.engine = engine;
    this.grant = grant;
    this.queue = queue;
    this.listeners = new LostListeners(grant.request().key(), engine.events());
    AcquireRequest request = grant.request();
    this.ttlNanos = request.ttl().toNanos();
    this.renewEveryNanos = ttlNanos / 3;
    this.holdTimeout = request.leaseTime() != null;
    this.holdEndsAt = holdTimeout ? grantedSince + request.leaseTime().toNanos() : 0;
    this.grantedSince = grantedSince;
    this.validUntil = grantedSince + request.expiry().toNanos();
    this.nextRenewalAt = grantedSince + renewEveryNanos;
    this.handovers = 0;
  }

  /** The successor of {@code predecessor}, handed its entry at the store, valid until and renewed from the given times. */
  private EngineLease(EngineLease predecessor, long validUntil, long nextRenewalAt, int handovers) {
    this.engine = predecessor.engine;
    this.grant = predecessor.grant;
    this.queue = predecessor.queue;
    this.listeners = new LostListeners(grant.request().key(), engine.events());
    this.ttlNanos = predecessor.ttlNanos;
    this.renewEveryNanos = predecessor.renewEveryNanos;
    this.holdTimeout = false;
    this.holdEndsAt = 0;
    this.grantedSince = engine.time().now();
    this.validUntil = validUntil;
    this.nextRenewalAt = nextRenewalAt;
    this.handovers = handovers;
  }

  /** Tells observers of this lease's events that it was acquired for {@code primitive}. */
  void observeAs(Primitive primitive) {
    this.primitive = primitive;
  }

  /** Whether the next local holder may take this lease over: it has no hold timeout and enough validity left. */
  boolean mayBeHandedOver(long minValidityNanos) {
    return !holdTimeout && isValidAt(engine.time().now() + minValidityNanos);
  }

  /** How many times the entry changed hands locally since it was taken, or last kept, at the store. */
  int handovers() {
    return handovers;
  }

  /** Whether a reader may join this lease's shared entry: it is not ending and has enough validity left. */
  boolean mayBeJoined(long minValidityNanos) {
    return !ending.get() && mayBeHandedOver(minValidityNanos);
  }

  /** A lease for a reader that joins this lease's shared entry: valid and renewed as this one, held beside it. */
  EngineLease joiner(LocalShares.Share joined) {
    EngineLease joiner = new EngineLease(this, validUntil, nextRenewalAt, 0);
    joiner.share = joined;
    return joiner;
  }

  long validUntil() {
    return validUntil;
  }

  LocalShares.Share share() {
    return share;
  }

  void setShare(LocalShares.Share share) {
    this.share = share;
  }

  /** The next local holder's lease: valid and renewed as this one. */
  EngineLease successor() {
    return new EngineLease(this, validUntil, nextRenewalAt, handovers + 1);
  }

  /** The next local holder's lease after the store kept the entry at {@code keptAt} for another ttl: a new chain. */
  EngineLease successorKeptAt(long keptAt) {
    return new EngineLease(this, keptAt + ttlNanos, keptAt + renewEveryNanos, 0);
  }

  /** The terms under which a waiter may take this lease over. */
  HandoverTerms terms() {
    return new HandoverTerms(grant.request().ttl(), grant.request().fair());
  }

  @Override
  public String key() {
    return grant.request().key();
  }

  @Override
  public String ownerId() {
    return grant.request().ownerId();
  }

  @Override
  public long fencingToken() {
    return grant.fencingToken();
  }

  @Override
  public boolean isHeld() {
    long now = engine.time().now();
    return !ending.get() && isValidAt(now) && !holdEndedAt(now);
  }

  @Override
  public LeaseState state() {
    return state;
  }

  @Override
  public void onLost(LockLostListener listener) {
    listeners.add(listener);
  }

  @Override
  public boolean extendHold(Duration holdFor) {
    Settings.inRange("holdFor", holdFor, MIN_HOLD,
        "Pass how long from now lock '" + key() + "' may still be held.");
    if (!holdTimeout) {
      throw new IllegalStateException("Lock '" + key() + "' (owner " + ownerId() + ") was acquired without a hold"
          + " timeout, so it has none to move: acquire it with LockOptions.withLeaseTime(...) to use extendHold.");
    }
    if (!moveHoldEnd(holdFor)) {
      return false;
    }
    if (ending.get()) {
      detach(); // ended meanwhile: drop the timer and the watch just set up
      return false;
    }
    log.debug("Lock '{}' (owner {}) now held for {} at most", key(), ownerId(), Durations.format(holdFor));
    renewAgain.set(true);
    renew(engine.time().now());
    return true;
  }

  /**
   * Sets the hold end, its timer and the watch that renews the entry until then; false if the lease is no
   * longer held. A lease whose hold end passed before its timer fired is expired here.
   */
  private boolean moveHoldEnd(Duration holdFor) {
    long now = engine.time().now();
    synchronized (hold) {
      if (!holdEndedAt(now)) {
        if (ending.get() || !isValidAt(now)) {
          return false;
        }
        holdEndsAt = now + holdFor.toNanos();
        Future<?> previous = holdTimer;
        if (previous != null) {
          previous.cancel(false);
        }
        holdTimer = engine.holdTimer(this, holdFor.toNanos());
        engine.watchdog().watch(this);
        return true;
      }
    }
    expireNow();
    return false;
  }

  @Override
  public void close() {
    release();
  }

  /** Releases the lock; true if it was still ours until this call released it. */
  boolean release() {
    return end(LeaseState.RELEASED, null);
  }

  Grant grant() {
    return grant;
  }

  void setHoldTimer(Future<?> timer) {
    holdTimer = timer;
  }

  /** The hold timer fired: free the lock, unless the hold end has moved later since the timer was set. */
  void expire() {
    synchronized (hold) {
      if (!holdEndedAt(engine.time().now())) {
        return;
      }
    }
    expireNow();
  }

  private void expireNow() {
    end(LeaseState.EXPIRED, LostReason.HOLD_TIMEOUT);
  }

  /** The client is closing: release and tell the holder. */
  void releaseOnClose() {
    end(LeaseState.RELEASED, LostReason.CLIENT_CLOSED);
  }

  /**
   * The store no longer holds the lock for us, or may not: give up the lease without asking the store.
   * Does no I/O, so it is safe on the watchdog and the store's I/O threads.
   */
  void lose(LostReason reason) {
    if (!leave(LeaseState.LOST)) {
      return;
    }
    log.warn("Lock '{}' (owner {}) lost: {}", key(), ownerId(), reason);
    // A reader that joined others on one entry lets the last of them release it: they may still hold it.
    if (engine.shares().leave(this) && reason == LostReason.RENEWAL_FAILED) {
      engine.cleanup().runLater("release of lost " + grant.request().lockName(), () -> engine.backend().release(grant));
    }
    engine.observers().ended(this, primitive, grantedSince, reason);
    listeners.end(reason);
  }

  private boolean end(LeaseState to, LostReason reason) {
    if (!ending.compareAndSet(false, true)) {
      return false;
    }
    LeaseState finalState = to;
    LostReason told = reason;
    boolean handedOver = false;
    try {
      detach();
      Handover handover = reason == null && queue != null ? engine.handOver(this) : Handover.NONE;
      handedOver = handover == Handover.HANDED_OVER;
      boolean released = switch (handover) {
        case HANDED_OVER, RELEASED -> true;
        case GONE -> false;
        case NONE -> !engine.shares().leave(this) || releaseAtStore();
      };
      if (!handedOver && !released && reason == null) {
        finalState = LeaseState.LOST;
        told = LostReason.ENTRY_REMOVED;
        log.warn("Lock '{}' (owner {}) was already gone from the store when released", key(), ownerId());
      }
    } finally {
      state = finalState;
      if (!handedOver && queue != null) {
        queue.leave();
      }
      engine.forget(this);
    }
    engine.observers().ended(this, primitive, grantedSince, told);
    listeners.end(told);
    return told == null;
  }

  LocalQueue queue() {
    return queue;
  }

  private boolean leave(LeaseState to) {
    if (!ending.compareAndSet(false, true)) {
      return false;
    }
    state = to;
    detach();
    if (queue != null) {
      queue.leave();
    }
    engine.forget(this);
    return true;
  }

  private void detach() {
    engine.watchdog().unwatch(this);
    Future<?> timer = holdTimer;
    if (timer != null) {
      timer.cancel(false);
    }
  }

  /**
   * Deletes our entry; false if the store no longer had it. A store that cannot be reached is retried later. A store
   * that refuses the release (a privilege revoked while the lock was held) keeps the entry until it lapses: the lease
   * is no longer renewed, so that is within a ttl, which the exception says.
   *
   * @throws LockException if the store refused the release
   */
  private boolean releaseAtStore() {
    try {
      return engine.backend().release(grant);
    } catch (BackendUnavailableException e) {
      engine.cleanup().runLater("release of " + grant.request().lockName(), () -> engine.backend().release(grant));
      return true;
    } catch (LockException refused) {
      log.warn("The release of lock '{}' (owner {}) was refused; no longer renewed, its entry lapses at the store"
          + " within {}", key(), ownerId(), Durations.format(grant.request().expiry()));
      throw refused;
    }
  }

  boolean isValidAt(long nanos) {
    return nanos - validUntil < 0;
  }

  private boolean holdEndedAt(long nanos) {
    return holdTimeout && nanos - holdEndsAt >= 0;
  }

  boolean isRenewalDue(long now) {
    // Renewing up to half an interval early lets leases acquired at different moments share a tick.
    return now - (nextRenewalAt - renewEveryNanos / 2) >= 0;
  }

  long nextCheckAt() {
    long renewal = nextRenewalAt;
    long valid = validUntil;
    return renewal - valid < 0 ? renewal : valid;
  }

  /**
   * The watchdog found the lease past its validity: renewals failed for a whole ttl, unless the hold
   * timeout has come, whose timer ends the lease instead.
   */
  void validityRanOut(long now) {
    synchronized (hold) {
      if (holdEndedAt(now)) {
        engine.watchdog().unwatch(this);
        return;
      }
    }
    lose(LostReason.RENEWAL_FAILED);
  }

  /**
   * Sends one renewal unless one is already under way; never blocks. With a hold timeout, the entry is
   * never extended past it. A renewal asked for while one is under way (the hold end moved) follows it.
   */
  void renew(long sentAt) {
    if (ending.get() || !renewing.compareAndSet(false, true)) {
      return;
    }
    renewAgain.set(false);
    long expiry = renewalExpiry(sentAt);
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

  /**
   * How long from {@code sentAt} the store should keep the entry: the ttl, or less to end with the hold
   * timeout. Zero when the hold ends too soon to be worth a renewal: then the lease is no longer watched.
   */
  private long renewalExpiry(long sentAt) {
    if (!holdTimeout) {
      return ttlNanos;
    }
    synchronized (hold) {
      long expiry = Math.min(ttlNanos, holdEndsAt - sentAt);
      if (expiry >= MIN_RENEWAL_NANOS) {
        return expiry;
      }
      engine.watchdog().unwatch(this);
      return 0;
    }
  }

  private void renewed(long sentAt, long expiry, Boolean ours, Throwable error) {
    renewing.set(false);
    if (error == null && Boolean.TRUE.equals(ours)) {
      validUntil = sentAt + expiry;
      engine.observers().renewed(this, primitive, true);
      if (renewAgain.get()) {
        renew(engine.time().now());
      }
      return;
    }
    if (error == null) {
      lose(LostReason.ENTRY_REMOVED);
      return;
    }
    engine.observers().renewed(this, primitive, false);
    long retryAt = engine.time().now() + Math.max(MIN_RETRY_NANOS, Math.min(MAX_RETRY_NANOS, renewEveryNanos / 3));
    nextRenewalAt = retryAt;
    log.debug("Renewal of {} failed; retrying", grant.request().lockName(), error);
    engine.watchdog().tickBy(nextCheckAt());
  }

  @Override
  public String toString() {
    return "Lease{key='" + key() + "', owner=" + ownerId() + ", token=" + fencingToken() + ", state=" + state + '}';
  }
}
