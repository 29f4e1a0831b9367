package dev.baton.engine;

import dev.baton.Lease;
import dev.baton.LockHolder.MultiLock;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.Primitive;
import dev.baton.spi.QueueRule;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An acquire that no thread waits for: the same steps as {@link Engine#acquire}, each run as a short task on the
 * client's few acquire threads, and between them a registration. It waits for the key's local turn as a
 * {@link LocalQueue.Registration}, told when the turn comes or a lease is handed over; at the store, each try of its
 * {@link StoreAcquisition} runs as a task, and between tries it is parked on the attempt's {@link Signal} and a timer
 * for the retry delay or the deadline: whichever comes first submits the next try. So a pending acquire costs no
 * thread.
 *
 * <p>Cancelling the future wakes the acquisition, which abandons its attempt on its next step, as a closing client
 * does ({@link Acquisitions}); a lease granted or handed over after the cancel is released at once. Observers are told
 * the acquire's start and its outcome together on the acquire thread that ends it, so that both are told on one
 * thread, as {@link dev.baton.LockObserver} promises; the wait they are told counts from the call. The future then
 * completes on a completion thread of the client ({@link Engine#completions}), so that the caller's stages never
 * run on, nor block, the acquire threads.
 */
final class AsyncAcquisition extends CompletableFuture<Lease> implements LocalQueue.Registration {
  private final Engine engine;
  private final String key;
  private final QueueRule rule;
  private final Primitive primitive;
  private final LockOptions options;
  private final Optional<MultiLock> multiLock;
  private final Executor steps;
  private final long start;
  private final boolean exclusive;
  private final String localKey;
  private final ReentrantLock lock = new ReentrantLock();
  private final Deadline deadline;
  /** Set once registered for the turn: read by a cancel. */
  private volatile LocalQueue queue;
  /** Set once talking to the store: read by a cancel. */
  private volatile StoreAcquisition store;
  private Signal signal;
  /** Whether a wake-up is awaited at the store: the first of the signal, the timer and a cancel takes it. */
  private boolean parked;
  /** The timer of the local wait's deadline, or of the wait between two tries at the store. */
  private Future<?> timer;

  /**
   * @param multiLock the multi-lock the key is taken for, if it is ({@link Engine#acquire})
   * @param deadline the one deadline of the local wait and the store's
   */
  AsyncAcquisition(Engine engine, String key, QueueRule rule, Primitive primitive, LockOptions options,
      Optional<MultiLock> multiLock, Deadline deadline) {
    this.engine = engine;
    this.deadline = deadline;
    this.key = key;
    this.rule = rule;
    this.primitive = primitive;
    this.options = options;
    this.multiLock = multiLock;
    this.steps = engine.asyncAcquires();
    this.start = engine.time().now();
    this.exclusive = Engine.isExclusive(rule);
    this.localKey = Engine.localKey(key, rule);
  }

  /** The first step: a lease joined at once, the local turn, or a registration for it. */
  void begin() {
    try {
      engine.backend().checkAcquisition(key, rule, options.fair());
      engine.ensureOpen();
      if (isDone()) {
        return; // cancelled before it began: nothing to clean up
      }
      EngineLease joined = engine.joinShared(key, rule, localKey, options);
      if (joined != null) {
        finish(joined);
        return;
      }
      registerForTurn();
    } catch (Throwable t) {
      fail(t);
    }
  }

  /** Takes the local turn if it is free, or registers for it until it comes or the deadline passes. */
  private void registerForTurn() {
    queue = engine.keys().retain(localKey, Engine.turns(rule));
    LocalQueue.Turn turn;
    lock.lock();
    try {
      turn = queue.register(this, exclusive ? HandoverTerms.of(options, engine.ttl(options), multiLock) : null);
      if (turn == null && !deadline.isUnbounded()) {
        timer = schedule(this::turnTimedOut, deadline.atNanos());
      }
    } catch (Throwable t) {
      engine.keys().release(localKey);
      throw t;
    } finally {
      lock.unlock();
    }
    if (turn != null) {
      inTurn(turn);
    } else if (isCancelled()) {
      withdrawn();
    }
  }

  @Override
  public void turnCame(LocalQueue.Turn turn) {
    step(() -> {
      stopTimer();
      inTurn(turn);
    });
  }

  @Override
  public void closed(String message) {
    step(() -> {
      stopTimer();
      engine.keys().release(localKey);
      fail(new IllegalStateException(message));
    });
  }

  /** The deadline passed in the local queue: gives up, unless the turn came first. */
  private void turnTimedOut() {
    if (queue.withdraw(this)) {
      engine.keys().release(localKey);
      fail(engine.timeout(key, options));
    }
  }

  /** Leaves the local queue after a cancel, unless the turn came first: then the step it came with cleans up. */
  private void withdrawn() {
    if (queue.withdraw(this)) {
      stopTimer();
      engine.keys().release(localKey);
      fail(new CancellationException());
    }
  }

  /**
   * With the local turn: the lease handed over, one joined, the entry that lingers in this client, or the store
   * acquisition's first try.
   */
  private void inTurn(LocalQueue.Turn turn) {
    if (Engine.wasLostOnItsWay(turn)) {
      try {
        engine.ensureOpen();
        if (isCancelled()) {
          throw new CancellationException();
        }
        registerForTurn(); // the loss let go of the turn and the key: this waiter holds nothing, and queues again
      } catch (Throwable t) {
        fail(t);
      }
      return;
    }
    if (turn.handedOver() != null) {
      tookOver(turn.handedOver()); // the lease releases the key when it ends
      return;
    }
    EngineLease resumed;
    try {
      engine.ensureOpen();
      if (isCancelled()) {
        throw new CancellationException();
      }
      // A reader that waited for the turn behind another may join the entry that one was granted.
      EngineLease joinedInTurn = engine.joinShared(key, rule, localKey, options);
      if (joinedInTurn != null) {
        engine.keys().release(localKey); // retained twice: by the turn and by the joined lease
        queue.leave();
        finish(joinedInTurn);
        return;
      }
      resumed = exclusive ? engine.resumeLingering(localKey, options, multiLock, queue) : null;
    } catch (Throwable t) {
      leaveTurn();
      fail(t);
      return;
    }
    if (resumed != null) {
      tookOver(resumed); // the lease keeps the turn, and releases the key when it ends
      return;
    }
    signal = engine.acquisitions().start();
    store = new StoreAcquisition(engine, key, rule, options, multiLock, deadline, true, signal);
    tryAtStore();
  }

  /** Finishes with {@code lease}, taken over from another holder of this client, unless the client closed meanwhile. */
  private void tookOver(EngineLease lease) {
    EngineLease ours;
    try {
      ours = engine.tookOver(lease);
    } catch (Throwable t) {
      fail(t);
      return;
    }
    finish(ours);
  }

  /** One step at the store: tries until granted or a wait is due, then holds the grant or parks. */
  private void tryAtStore() {
    StoreAcquisition.Granted granted;
    try {
      if (isCancelled()) {
        CancellationException cancelled = new CancellationException();
        store.abandon(cancelled);
        throw cancelled;
      }
      granted = store.next();
    } catch (Throwable t) {
      engine.acquisitions().finish(signal);
      leaveTurn();
      fail(t);
      return;
    }
    if (granted == null) {
      park(store.wakeAtNanos());
      return;
    }
    EngineLease lease;
    try {
      lease = engine.hold(granted.grant(), localKey, exclusive ? queue : null, granted.sentAt(),
          Engine.lingerNanos(options));
    } catch (Throwable t) {
      leaveTurn();
      fail(t);
      return;
    } finally {
      engine.acquisitions().finish(signal);
    }
    if (!exclusive) {
      queue.leave();
    }
    finish(lease);
  }

  /** Waits for the signal, the timer or a cancel, whichever comes first, without a thread. */
  private void park(long wakeAtNanos) {
    lock.lock();
    try {
      parked = true;
      timer = schedule(this::wake, wakeAtNanos);
    } finally {
      lock.unlock();
    }
    if (!signal.park(this::wake) || isCancelled()) {
      wake();
    }
  }

  /** Ends the wait at the store, if it still is one: the next try runs as a step. */
  private void wake() {
    lock.lock();
    try {
      if (!parked) {
        return;
      }
      parked = false;
    } finally {
      lock.unlock();
    }
    stopTimer();
    step(this::tryAtStore);
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      step(this::onCancel);
    }
    return cancelled;
  }

  private void onCancel() {
    if (store != null) {
      wake();
    } else if (queue != null) {
      withdrawn();
    }
  }

  /** Gives back the turn and the key after a failure with the turn: an exclusive lease would have kept them. */
  private void leaveTurn() {
    queue.leave();
    engine.keys().release(localKey);
  }

  private void finish(EngineLease lease) {
    lease.observeAs(primitive);
    engine.observers().acquiring(key, primitive);
    engine.observers().acquired(lease, primitive, start);
    completeOffTheAcquireThreads(() -> {
      if (!complete(lease)) {
        lease.close(); // cancelled meanwhile
      }
    });
  }

  private void fail(Throwable t) {
    engine.observers().acquiring(key, primitive);
    if (t instanceof LockTimeoutException) {
      engine.observers().timedOut(key, primitive, start);
    } else {
      engine.observers().failed(key, primitive, start, t);
    }
    completeOffTheAcquireThreads(() -> completeExceptionally(t));
  }

  /**
   * Completes the future on a completion thread: the caller's dependent stages run there, and one that blocks holds up
   * no acquire thread. Once the client closed them, here.
   */
  private void completeOffTheAcquireThreads(Runnable completion) {
    try {
      engine.completions().execute(completion);
    } catch (RejectedExecutionException closed) {
      completion.run();
    }
  }

  /** Runs {@code action} on an acquire thread; once the client closed them, here. */
  private void step(Runnable action) {
    try {
      steps.execute(action);
    } catch (RejectedExecutionException closed) {
      action.run();
    }
  }

  /** A timer that runs {@code action} as a step at {@code atNanos}; null once the client closed, and it runs now. */
  private Future<?> schedule(Runnable action, long atNanos) {
    try {
      return engine.time().scheduleAt(() -> step(action), atNanos);
    } catch (RejectedExecutionException closed) {
      step(action);
      return null;
    }
  }

  private void stopTimer() {
    Future<?> stopped;
    lock.lock();
    try {
      stopped = timer;
      timer = null;
    } finally {
      lock.unlock();
    }
    if (stopped != null) {
      stopped.cancel(false);
    }
  }
}
