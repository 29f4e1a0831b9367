package dev.baton.engine;

import dev.baton.LeaseState;
import dev.baton.LockLostListener;
import dev.baton.LostReason;
import dev.baton.Primitive;
import dev.baton.internal.Settings;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One holder's view of an entry this client holds at the store ({@link HeldEntry}): its state, its lost-lock
 * listeners and its hold timeout. The entry renews itself, whatever the number of leases on it, and is released at the
 * store by the last of them to leave.
 *
 * <h2>Invariants</h2>
 *
 * <ol>
 *   <li>The state goes one way: HELD, then ending (null in {@link #state}), then exactly one of RELEASED, EXPIRED or
 *       LOST, written once. The thread that takes the lease out of HELD (the holder, the hold timer, the entry being
 *       lost, the client closing) decides the final state, which may need the store's answer (a release that finds
 *       the entry gone ends LOST; a hold of the Lock methods leaves it to the thread that brings that answer,
 *       {@link #releaseInOrder}); until it is written the lease reads HELD but is no longer {@link #isHeld()}.
 *   <li>{@link #isHeld()} is true only while the entry is valid ({@link HeldEntry#isValidAt}) and the hold end has not
 *       come.
 *   <li>The hold end only moves while the lease is held; {@link #hold} orders a move against the decisions the entry
 *       takes on it (expiring, no longer renewing), and the entry is never renewed past it.
 *   <li>The holder is told of a loss once, on the events thread.
 * </ol>
 *
 * <h2>Who writes what</h2>
 *
 * <ul>
 *   <li>{@link #state}: HELD to ending once, by whichever thread ends the lease; the final state by that thread only,
 *       or by the one that brings the store's answer to a {@link #releaseInOrder}.
 *   <li>{@link #holdEndsAt} and {@link #holdTimer}: under {@link #hold}, by the holder moving its hold end; the
 *       timer also once by the engine right after the grant, before the lease is returned.
 *   <li>{@link #primitive}: by the acquiring thread, before the lease is returned to the holder.
 *   <li>Everything else is final.
 * </ul>
 */
final class EngineLease implements ReleasableLease {
  private static final Logger log = LoggerFactory.getLogger(EngineLease.class);
  private static final long MIN_RENEWAL_NANOS = 2_000_000L;
  private static final Duration MIN_HOLD = Duration.ofMillis(1);

  private final HeldEntry entry;
  private final Engine engine;
  private final LostListeners listeners;
  private final ReleaseListeners releaseListeners;
  /** HELD, null while ending, then the final state. */
  private final AtomicReference<LeaseState> state = new AtomicReference<>(LeaseState.HELD);
  /** Guards moves of the hold end against the decisions taken on it: expiring, and no longer renewing. */
  /** A lock, not a monitor: it is held around calls to the watchdog and the scheduler, which take locks of their own. */
  private final ReentrantLock hold = new ReentrantLock();
  private final boolean holdTimeout;
  private volatile long holdEndsAt;
  private final long grantedSince;
  private volatile Future<?> holdTimer;
  /** What the holder acquired for, as observers are told: set by the acquiring thread before the lease is returned. */
  private volatile Primitive primitive = Primitive.LOCK;
  /** The multi-lease this lease is one key of, told if it ends other than by its holder's release; else null. */
  private volatile MultiLease whole;
  /** Why the lease ended, if not by its holder's release: written before {@link #whole} is read, so one is told. */
  private volatile LostReason endedBy;

  /**
   * A lease on {@code entry}, held from {@code grantedSince}.
   *
   * @param holdEndsAt when its hold timeout ends it; 0 for none
   */
  EngineLease(HeldEntry entry, long grantedSince, long holdEndsAt) {
    this.entry = entry;
    this.engine = entry.engine();
    this.listeners = new LostListeners(entry.grant().request().key(), engine.events());
    this.releaseListeners = new ReleaseListeners(entry.grant().request().key(), engine.events());
    this.grantedSince = grantedSince;
    this.holdTimeout = holdEndsAt != 0;
    this.holdEndsAt = holdEndsAt;
  }

  /** Tells observers of this lease's events that it was acquired for {@code primitive}. */
  void observeAs(Primitive primitive) {
    this.primitive = primitive;
  }

  Primitive primitive() {
    return primitive;
  }

  HeldEntry entry() {
    return entry;
  }

  /** Makes this lease one key of {@code multi}, which is told if it ended already or ends other than by a release. */
  void partOf(MultiLease multi) {
    whole = multi;
    LostReason reason = endedBy;
    if (reason != null) {
      multi.partEnded(reason);
    }
  }

  /** Tells the multi-lease this lease is a key of, if any, that it ended for {@code reason}. Does no I/O. */
  private void tellWhole(LostReason reason) {
    endedBy = reason;
    MultiLease multi = whole;
    if (multi != null) {
      multi.partEnded(reason);
    }
  }

  boolean hasHoldTimeout() {
    return holdTimeout;
  }

  @Override
  public String key() {
    return entry.grant().request().key();
  }

  @Override
  public String ownerId() {
    return entry.grant().request().ownerId();
  }

  @Override
  public long fencingToken() {
    return entry.grant().fencingToken();
  }

  @Override
  public boolean isHeld() {
    long now = engine.time().now();
    return state.get() == LeaseState.HELD && entry.isValidAt(now) && !holdEndedAt(now);
  }

  @Override
  public LeaseState state() {
    LeaseState current = state.get();
    return current == null ? LeaseState.HELD : current;
  }

  @Override
  public void onLost(LockLostListener listener) {
    listeners.add(listener);
  }

  @Override
  public void onReleaseRequested(Runnable listener) {
    releaseListeners.add(listener);
    if (!isEnding()) {
      entry.listenForReleaseRequests();
    }
  }

  /** Someone asked the holder of this lease's entry to release it: the listeners hear of it if the lease is held. */
  void releaseRequested() {
    if (!isEnding()) {
      releaseListeners.requested();
    }
  }

  @Override
  public Optional<Duration> holdRemaining() {
    long now = engine.time().now();
    return holdTimeout && isHeld() ? Optional.of(Duration.ofNanos(Math.max(0, holdEndsAt - now))) : Optional.empty();
  }

  @Override
  public boolean extendHold(Duration holdFor) {
    Settings.inRange("holdFor", holdFor, MIN_HOLD,
        "Pass how long from now lock '" + key() + "' may still be held.");
    if (!holdTimeout) {
      throw new IllegalStateException("Lock '" + key() + "' (owner " + ownerId() + ") was acquired without a hold"
          + " timeout, so it has none to move: acquire it with LockOptions.withHoldTimeout(...) to use extendHold.");
    }
    if (!moveHoldEnd(holdFor)) {
      return false;
    }
    if (isEnding()) {
      cancelHoldTimer(); // ended meanwhile: drop the timer just set up
      return false;
    }
    log.debug("Lock '{}' (owner {}) now held for {} at most", key(), ownerId(), Durations.format(holdFor));
    entry.renewNow();
    return true;
  }

  /**
   * Sets the hold end, its timer and the watch that renews the entry until then; false if the lease is no
   * longer held. A lease whose hold end passed before its timer fired is expired here.
   */
  private boolean moveHoldEnd(Duration holdFor) {
    long now = engine.time().now();
    hold.lock();
    try {
      if (!holdEndedAt(now)) {
        if (isEnding() || !entry.isValidAt(now)) {
          return false;
        }
        holdEndsAt = now + holdFor.toNanos();
        Future<?> previous = holdTimer;
        if (previous != null) {
          previous.cancel(false);
        }
        holdTimer = engine.holdTimer(this, holdFor.toNanos());
        engine.watchdog().watch(entry);
        return true;
      }
    } finally {
      hold.unlock();
    }
    expireNow();
    return false;
  }

  @Override
  public void close() {
    release();
  }

  @Override
  public boolean release() {
    return end(LeaseState.RELEASED, null);
  }

  void setHoldTimer(Future<?> timer) {
    holdTimer = timer;
  }

  /** The hold timer fired: free the lock, unless the hold end has moved later since the timer was set. */
  void expire() {
    hold.lock();
    try {
      if (!holdEndedAt(engine.time().now())) {
        return;
      }
    } finally {
      hold.unlock();
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
   * The entry was lost ({@link HeldEntry#lose}), which took this lease off it: end it without asking the store. Does
   * no I/O, so it is safe on the watchdog and the store's I/O threads.
   */
  void lose(LostReason reason) {
    if (!state.compareAndSet(LeaseState.HELD, null)) {
      return;
    }
    state.set(LeaseState.LOST);
    cancelHoldTimer();
    entry.left(HeldEntry.Departure.GONE);
    tellWhole(reason);
    engine.observers().ended(this, primitive, grantedSince, reason);
    listeners.end(reason);
  }

  private boolean end(LeaseState to, LostReason reason) {
    if (!state.compareAndSet(LeaseState.HELD, null)) {
      return false;
    }
    HeldEntry.Departure departure = HeldEntry.Departure.RELEASED;
    try {
      cancelHoldTimer();
      departure = entry.release(this, reason == null);
    } catch (RuntimeException | Error e) {
      state.set(to);
      entry.left(departure);
      throw e;
    }
    return ended(to, reason, departure, true);
  }

  /**
   * The holder's release of a lease no caller sees (a hold of the Lock methods), which need not wait for the store's
   * answer ({@link HeldEntry#releaseInOrder}): when the answer is still on its way, passes the key's local turn on
   * at once (this client's next requests reach the store after the release), returns true, and writes the final
   * state when the answer comes (LOST if the entry was gone: the holder's code is no longer there to be told, so
   * that is logged, and observers hear it; a refusal that comes as the answer is logged, and the lease RELEASED).
   * Otherwise as {@link #release}.
   */
  @Override
  public boolean releaseInOrder() {
    Sent sent = sendRelease(entry::releaseInOrder);
    if (sent.answered()) {
      return sent.ended().join();
    }
    engine.releasesInFlight().add(sent.ended());
    return true;
  }

  /**
   * Starts the holder's release of this lease as one of several sent together ({@link MultiLease#release}): as
   * {@link #release}, but the store's release may still be on its way when this returns
   * ({@link HeldEntry#releaseAhead}), with the key's local turn passed on (this client's next requests reach the store
   * after it). The stage completes once the final state is written, with what {@link #release} returns, or fails with
   * the {@link dev.baton.LockException} that {@link #release} throws when the store refuses.
   *
   * @throws dev.baton.LockException if the store refused the release before this returned
   */
  CompletableFuture<Boolean> releaseAhead() {
    return sendRelease(entry::releaseAhead).ended();
  }

  /**
   * The release of {@link #releaseInOrder} and {@link #releaseAhead}, which differ only in the entry's side:
   * {@code send} lets this lease go from its entry, and its departure may come with the store's answer, after this
   * returns (then the key's local turn is passed on at once), or fail with a refusal that came as the answer (then the
   * lease ends RELEASED, and its end fails with that refusal). A refusal before it returns is thrown, the lease
   * RELEASED.
   */
  private Sent sendRelease(Function<EngineLease, CompletionStage<HeldEntry.Departure>> send) {
    if (!state.compareAndSet(LeaseState.HELD, null)) {
      return new Sent(true, CompletableFuture.completedFuture(false));
    }
    CompletableFuture<HeldEntry.Departure> departure;
    try {
      cancelHoldTimer();
      departure = send.apply(this).toCompletableFuture();
    } catch (RuntimeException | Error e) {
      state.set(LeaseState.RELEASED);
      entry.left(HeldEntry.Departure.RELEASED);
      throw e;
    }
    boolean answered = departure.isDone();
    if (!answered) {
      entry.left(HeldEntry.Departure.RELEASED);
    }
    return new Sent(answered, departure.handle((gone, refused) -> {
      if (refused == null) {
        return ended(LeaseState.RELEASED, null, gone, answered);
      }
      state.set(LeaseState.RELEASED);
      if (answered) {
        entry.left(HeldEntry.Departure.RELEASED);
      }
      throw refused instanceof CompletionException wrapped ? wrapped : new CompletionException(refused);
    }));
  }

  /**
   * A release sent: whether the store had answered it when it was sent, and the lease's end, which completes once the
   * final state is written, with what {@link #release} returns.
   */
  private record Sent(boolean answered, CompletableFuture<Boolean> ended) {}

  /**
   * Writes the lease's final state, as the holder's end ({@code to}, {@code reason}) and the entry's {@code departure}
   * decide, passes the key's local turn on unless {@code leaveTurn} is false (it was passed on already), and tells
   * whoever listens.
   */
  private boolean ended(LeaseState to, LostReason reason, HeldEntry.Departure departure, boolean leaveTurn) {
    LeaseState finalState = to;
    LostReason told = reason;
    if (departure == HeldEntry.Departure.GONE && reason == null) {
      finalState = LeaseState.LOST;
      told = entry.lossReason();
      log.warn("Lock '{}' (owner {}) was already gone from the store when released: the work done under it was not"
          + " protected", key(), ownerId());
    }
    state.set(finalState);
    if (leaveTurn) {
      entry.left(departure);
    }
    if (told != null) {
      tellWhole(told);
    }
    engine.observers().ended(this, primitive, grantedSince, told);
    listeners.end(told);
    return told == null;
  }

  /** Whether this lease has ended, or its end (a release, an expiry, a loss) has begun. */
  boolean isEnding() {
    return state.get() != LeaseState.HELD;
  }

  private void cancelHoldTimer() {
    Future<?> timer = holdTimer;
    if (timer != null) {
      timer.cancel(false);
    }
  }

  private boolean holdEndedAt(long nanos) {
    return holdTimeout && nanos - holdEndsAt >= 0;
  }

  /** Whether the hold end has come by {@code now}: then the entry is no longer renewed, and the hold timer ends it. */
  boolean holdEndedStopping(long now) {
    hold.lock();
    try {
      if (!holdEndedAt(now)) {
        return false;
      }
      engine.watchdog().unwatch(entry);
      return true;
    } finally {
      hold.unlock();
    }
  }

  /**
   * How long from {@code sentAt} the store should keep the entry: its ttl, or less to end with the hold timeout.
   * Zero when the hold ends too soon to be worth a renewal: then the entry is no longer watched.
   */
  long renewalExpiry(long sentAt, long ttlNanos) {
    hold.lock();
    try {
      long expiry = Math.min(ttlNanos, holdEndsAt - sentAt);
      if (expiry >= MIN_RENEWAL_NANOS) {
        return expiry;
      }
      engine.watchdog().unwatch(entry);
      return 0;
    } finally {
      hold.unlock();
    }
  }

  @Override
  public String toString() {
    return "Lease{key='" + key() + "', owner=" + ownerId() + ", token=" + fencingToken() + ", state=" + state() + '}';
  }
}
