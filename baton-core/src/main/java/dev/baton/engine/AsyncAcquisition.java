package dev.baton.engine;

import dev.baton.Lease;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An acquire running on a worker thread. Cancelling it interrupts the wait, which cleans up at the
 * store; a lease granted after all is released at once.
 */
final class AsyncAcquisition extends CompletableFuture<Lease> implements Runnable {
  private final AcquireCall acquire;
  private final ReentrantLock lock = new ReentrantLock();
  private Thread runner;

  AsyncAcquisition(AcquireCall acquire) {
    this.acquire = acquire;
  }

  @Override
  public void run() {
    lock.lock();
    try {
      if (isDone()) {
        return;
      }
      runner = Thread.currentThread();
    } finally {
      lock.unlock();
    }
    try {
      EngineLease lease = acquire.call();
      if (!complete(lease)) {
        lease.close();
      }
    } catch (Throwable t) {
      completeExceptionally(t);
    } finally {
      lock.lock();
      try {
        runner = null;
      } finally {
        lock.unlock();
      }
      Thread.interrupted(); // a cancel that came after the acquire finished must not reach the next task
    }
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      lock.lock();
      try {
        if (runner != null) {
          runner.interrupt();
        }
      } finally {
        lock.unlock();
      }
    }
    return cancelled;
  }
}
