package dev.baton.engine;

import dev.baton.LeaseState;
import dev.baton.LockLostListener;
import dev.baton.LockOptions;
import dev.baton.LostReason;
import dev.baton.internal.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The lease of a multi-lock ({@link EngineMultiLock}): one {@link EngineLease} per key, each on its key's own
 * exclusive entry, taken one after the other in the multi-lock's key order ({@link MultiAcquisition}). Each part is
 * renewed, handed over and released as a lock's lease is; this lease is the holder's view of them together. Its
 * {@link #key()} and {@link #ownerId()} are its first key's, its {@link #fencingToken()} the largest of its keys'.
 *
 * <p>A hold timeout is the parts': they are taken with a hold timeout beyond any wait ({@link #UNTIL_ALL_TAKEN}), which
 * keeps each entry to its lease alone (never handed over or joined, renewed no further than its hold end), and once
 * every key is held each part's hold end is moved to the multi-lock's hold timeout from then ({@link #allTaken}). The
 * first part whose hold timer fires ends this lease as EXPIRED, which releases the others.
 *
 * <h2>Invariants</h2>
 *
 * <ol>
 *   <li>The state goes one way: HELD, then ending (null in {@link #state}), then exactly one of RELEASED, EXPIRED or
 *       LOST, written once by the thread that took the lease out of HELD: its holder releasing it, a part ending other
 *       than by a release (lost, its hold timeout, the client closing), or its acquisition failing.
 *   <li>{@link #isHeld()} is true only while the state is HELD, every key is taken and every part is held.
 *   <li>Once the lease has left HELD every part is released or has ended: the parts taken by then by the thread that
 *       took it out of HELD, a part taken later by its acquisition ({@link #take}).
 *   <li>The holder is told of a loss once, on the events thread: the first reason a part ended other than by a release.
 * </ol>
 *
 * <h2>Who writes what</h2>
 *
 * <ul>
 *   <li>{@link #parts}: under this object's monitor, by the acquisition, one key after the other; read under it by the
 *       thread that ends the lease.
 *   <li>{@link #state}: HELD to ending once, by whichever thread ends the lease; the final state by that thread only.
 *   <li>{@link #firstLoss}: once, by the first part to end other than by a release (the watchdog, a store's I/O thread,
 *       a hold timer, the client closing, or the holder's release finding an entry gone).
 *   <li>Everything else is final.
 * </ul>
 */
final class MultiLease implements ReleasableLease {
  /** The hold timeout parts are taken with when the multi-lock has one, until every key is held. */
  static final Duration UNTIL_ALL_TAKEN = LockOptions.MAX_DURATION;
  private static final Duration MIN_HOLD = Duration.ofMillis(1);

  private final Engine engine;
  private final List<String> keys;
  private final boolean holdTimeout;
  private final List<EngineLease> parts = new ArrayList<>();
  /** HELD, null while ending, then the final state. */
  private final AtomicReference<LeaseState> state = new AtomicReference<>(LeaseState.HELD);
  private final AtomicReference<LostReason> firstLoss = new AtomicReference<>();
  private final LostListeners listeners;
  private final Runnable onPartEnded;

  /**
   * @param keys the keys in the order they are taken
   * @param holdTimeout whether the parts are taken with {@link #UNTIL_ALL_TAKEN}, moved by {@link #allTaken}
   * @param onPartEnded run once if a part ends this lease ({@link #partEnded}), on the thread that ended it: it only
   *     hands on
   */
  MultiLease(Engine engine, List<String> keys, boolean holdTimeout, Runnable onPartEnded) {
    this.engine = engine;
    this.keys = keys;
    this.holdTimeout = holdTimeout;
    this.onPartEnded = onPartEnded;
    this.listeners = new LostListeners(keys.toString(), engine.events());
  }

  /**
   * Adds the lease of the next key. False if this lease has ended meanwhile (a key taken before was lost): then the
   * part is released at once, and the acquisition takes no more keys.
   */
  boolean take(EngineLease part) {
    synchronized (this) {
      parts.add(part);
    }
    part.partOf(this);
    if (state.get() == LeaseState.HELD) {
      return true;
    }
    part.release();
    return false;
  }

  /** Every key is held: the hold timeout, if any, counts from now. */
  void allTaken(Duration holdFor) {
    if (holdTimeout) {
      taken().forEach(part -> part.extendHold(holdFor));
    }
  }

  /**
   * The acquisition failed or was cancelled: releases the keys taken so far, last first, unless the lease ended
   * already. A release the store refused is added to {@code failure}, if there is one (its entry logs it in any case).
   */
  void abandon(Throwable failure) {
    if (!state.compareAndSet(LeaseState.HELD, null)) {
      return;
    }
    try {
      releaseAll(taken(), failure);
    } finally {
      state.set(LeaseState.RELEASED);
    }
  }

  /**
   * A part ended other than by this lease's release, for {@code reason}: the first such end ends this lease, tells
   * its holder and releases its other keys in the background. Does no I/O, as a part may end on the watchdog or a
   * store's I/O thread.
   */
  void partEnded(LostReason reason) {
    firstLoss.compareAndSet(null, reason);
    if (!state.compareAndSet(LeaseState.HELD, null)) {
      return;
    }
    List<EngineLease> others = taken();
    state.set(finalState(reason));
    listeners.end(reason);
    engine.inBackground(() -> others.forEach(EngineLease::release));
    onPartEnded.run();
  }

  /** Whether this lease left HELD: released, abandoned, or ended by a part. */
  boolean hasEnded() {
    return state.get() != LeaseState.HELD;
  }

  @Override
  public String key() {
    return keys.get(0);
  }

  @Override
  public List<String> keys() {
    return keys;
  }

  @Override
  public String ownerId() {
    return taken().get(0).ownerId();
  }

  @Override
  public long fencingToken() {
    return taken().stream().mapToLong(EngineLease::fencingToken).max().orElseThrow();
  }

  @Override
  public long fencingToken(String key) {
    if (key == null || !keys.contains(key)) {
      throw new IllegalArgumentException("This multi-lock holds " + keys + ", not '" + key + "': ask for the token"
          + " of one of its keys.");
    }
    return taken().stream().filter(part -> part.key().equals(key)).findFirst()
        .orElseThrow(() -> new IllegalStateException("Multi-lock " + keys + " ended as " + state() + " before key '"
            + key + "' was taken, so it has no token for it."))
        .fencingToken();
  }

  @Override
  public boolean isHeld() {
    List<EngineLease> taken = taken();
    return state.get() == LeaseState.HELD && taken.size() == keys.size() && taken.stream().allMatch(EngineLease::isHeld);
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

  /** Listens on every key's lease: a request to release any of the keys is a request to release the multi-lock. */
  @Override
  public void onReleaseRequested(Runnable listener) {
    if (listener == null) {
      throw new IllegalArgumentException("The release-request listener of multi-lock " + keys + " must not be null.");
    }
    taken().forEach(part -> part.onReleaseRequested(listener));
  }

  @Override
  public Optional<Duration> holdRemaining() {
    if (!holdTimeout || !isHeld()) {
      return Optional.empty();
    }
    return taken().stream().map(EngineLease::holdRemaining).flatMap(Optional::stream).min(Duration::compareTo);
  }

  @Override
  public boolean extendHold(Duration holdFor) {
    Settings.inRange("holdFor", holdFor, MIN_HOLD, "Pass how long from now multi-lock " + keys + " may still be held.");
    if (!holdTimeout) {
      throw new IllegalStateException("Multi-lock " + keys + " (owner " + ownerId() + ") was acquired without a hold"
          + " timeout, so it has none to move: acquire it with LockOptions.withHoldTimeout(...) to use extendHold.");
    }
    boolean moved = true;
    for (EngineLease part : taken()) {
      moved &= part.extendHold(holdFor);
    }
    return moved && isHeld();
  }

  @Override
  public void close() {
    release();
  }

  /**
   * Releases every key, last first, the store's releases sent together ({@link #releaseAll}); true if the lease was
   * held until this call released it.
   */
  @Override
  public boolean release() {
    if (!state.compareAndSet(LeaseState.HELD, null)) {
      return false;
    }
    RuntimeException refused = null;
    try {
      refused = releaseAll(taken(), null);
    } finally {
      LostReason reason = firstLoss.get();
      state.set(finalState(reason));
      listeners.end(reason);
    }
    if (refused != null) {
      throw refused;
    }
    return firstLoss.get() == null;
  }

  /**
   * Releases {@code taken}, last first, each whatever the others do: sends every release before it waits for any
   * answer ({@link EngineLease#releaseAhead}), so that a store that serves a client's requests in order answers them in
   * one round trip; returns once every part's final state is written. Returns the first refusal, the later ones added
   * to it, or adds them all to {@code failure} if there is one.
   */
  private static RuntimeException releaseAll(List<EngineLease> taken, Throwable failure) {
    List<CompletableFuture<Boolean>> answers = new ArrayList<>(taken.size());
    List<RuntimeException> refusals = new ArrayList<>(0);
    for (int i = taken.size() - 1; i >= 0; i--) {
      try {
        answers.add(taken.get(i).releaseAhead());
      } catch (RuntimeException refused) {
        refusals.add(refused);
      }
    }
    for (CompletableFuture<Boolean> answer : answers) {
      try {
        answer.join();
      } catch (CompletionException refused) {
        refusals.add(refused.getCause() instanceof RuntimeException cause ? cause : refused);
      }
    }
    RuntimeException first = null;
    for (RuntimeException refused : refusals) {
      if (failure != null) {
        failure.addSuppressed(refused);
      } else if (first == null) {
        first = refused;
      } else {
        first.addSuppressed(refused);
      }
    }
    return first;
  }

  private static LeaseState finalState(LostReason reason) {
    if (reason == null || reason == LostReason.CLIENT_CLOSED) {
      return LeaseState.RELEASED;
    }
    return reason == LostReason.HOLD_TIMEOUT ? LeaseState.EXPIRED : LeaseState.LOST;
  }

  private synchronized List<EngineLease> taken() {
    return List.copyOf(parts);
  }

  @Override
  public String toString() {
    return "MultiLease{keys=" + keys + ", state=" + state() + '}';
  }
}
