package dev.baton.engine;

import dev.baton.Lease;
import dev.baton.LockTimeoutException;
import dev.baton.Primitive;
import dev.baton.spi.QueueRule;
import java.util.concurrent.CompletableFuture;

/**
 * A multi-lock's {@code acquireAsync}: a chain of its keys' asynchronous acquires ({@link AsyncAcquisition}), each
 * begun when the one before it is granted, with what is left of the one deadline. No thread waits: each key's acquire
 * is a registration, and each link runs on the thread that completes the key before it (a completion thread of the
 * client, or the caller's for a first key granted at once).
 *
 * <p>Cancelling the future cancels the key's acquire under way and releases the keys taken; a key granted as the
 * cancel comes is released as well. A key not had within the deadline, or any other failure, releases the keys taken
 * and completes the future as a lock's would. A key lost while a later one is awaited cancels the later key's
 * acquire, and the chain starts over from the first key within what is left of the deadline.
 */
final class AsyncMultiAcquisition extends CompletableFuture<Lease> {
  private final Engine engine;
  private final MultiAcquisition acquisition;
  /** The key's acquire under way: set by each link before it may complete, read by a cancel. */
  private AsyncAcquisition step;

  AsyncMultiAcquisition(Engine engine, MultiAcquisition acquisition) {
    this.engine = engine;
    this.acquisition = acquisition;
  }

  /**
   * Begins with the first key.
   *
   * @throws IllegalStateException if the client is closed
   */
  void begin() {
    engine.ensureOpen();
    nextStep();
  }

  private void nextStep() {
    AsyncAcquisition next;
    try {
      next = engine.acquireAsync(acquisition.nextKey(), QueueRule.EXCLUSIVE, Primitive.MULTI_LOCK,
          acquisition.partOptions(), acquisition.multiLock(), acquisition.nextDeadline());
    } catch (Throwable t) {
      failed(t);
      return;
    }
    synchronized (this) {
      step = next;
    }
    if (isCancelled()) {
      next.cancel(false);
    }
    acquisition.stop().onStop(() -> next.cancel(false));
    next.whenComplete(this::stepDone);
  }

  private void stepDone(Lease part, Throwable error) {
    if (error != null) {
      if (!isDone() && acquisition.startOver()) {
        nextStep(); // a key was lost, which cancelled this step: the keys are taken again from the first
        return;
      }
      failed(error);
      return;
    }
    boolean more = acquisition.took((EngineLease) part);
    if (isDone()) {
      acquisition.abandon(null); // cancelled meanwhile: the keys taken are let go
      return;
    }
    if (more) {
      nextStep();
    } else if (!complete(acquisition.lease())) {
      acquisition.lease().close(); // cancelled as it completed
    }
  }

  private void failed(Throwable error) {
    acquisition.abandon(error);
    if (!isDone()) {
      completeExceptionally(error instanceof LockTimeoutException ? acquisition.timeout() : error);
    }
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      AsyncAcquisition current;
      synchronized (this) {
        current = step;
      }
      if (current != null) {
        current.cancel(false);
      }
    }
    return cancelled;
  }
}
