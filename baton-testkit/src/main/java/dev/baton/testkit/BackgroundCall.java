package dev.baton.testkit;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A call running on its own daemon thread, so that a test can see it block, interrupt it, and collect its
 * result or exception within a bound.
 *
 * @param <T> what the call returns
 */
public final class BackgroundCall<T> {
  private static final Duration BLOCKED_FOR = Duration.ofMillis(200);
  private static final Duration BLOCKED_WITHIN = Duration.ofSeconds(5);

  private final CompletableFuture<T> outcome = new CompletableFuture<>();
  private final Thread thread;

  private BackgroundCall(String name, Callable<T> call) {
    thread = new Thread(() -> run(call), name);
    thread.setDaemon(true);
  }

  /** Starts {@code call} on a new daemon thread named {@code name}. */
  public static <T> BackgroundCall<T> start(String name, Callable<T> call) {
    BackgroundCall<T> started = new BackgroundCall<>(name, call);
    started.thread.start();
    return started;
  }

  /**
   * Waits (up to 5 s) until the thread has been parked for 200 ms in a row: it is waiting for something
   * rather than on its way there or in a round trip to a store.
   */
  public void awaitBlocked() {
    awaitBlocked(BLOCKED_FOR);
  }

  /**
   * Waits (up to 5 s) until the thread has been parked for {@code parkedFor} in a row: shorter than
   * {@link #awaitBlocked()} where the call cannot park on its way to the wait (a thread queueing behind a lock its
   * client holds makes no round trip first).
   */
  public void awaitBlocked(Duration parkedFor) {
    await("thread " + thread.getName() + " blocked")
        .during(parkedFor)
        .atMost(BLOCKED_WITHIN)
        .pollInterval(Duration.ofMillis(10))
        .until(this::isParkedStill);
  }

  /** Interrupts the thread. */
  public void interrupt() {
    thread.interrupt();
  }

  /** Whether the call has returned or thrown. */
  public boolean isDone() {
    return outcome.isDone();
  }

  /**
   * Waits up to {@code timeout} for the call to return.
   *
   * @throws AssertionError if it threw, or did not return in time
   */
  public T result(Duration timeout) throws InterruptedException {
    try {
      return outcome.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError(thread.getName() + " threw instead of returning", e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError(thread.getName() + " did not return within " + timeout, e);
    }
  }

  /**
   * Waits up to {@code timeout} for the call to throw, and returns what it threw.
   *
   * @throws AssertionError if it returned, or did not end in time
   */
  public Throwable failure(Duration timeout) throws InterruptedException {
    try {
      T value = outcome.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      throw new AssertionError(thread.getName() + " returned " + value + " instead of throwing");
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionError(thread.getName() + " did not end within " + timeout, e);
    }
  }

  private void run(Callable<T> call) {
    try {
      outcome.complete(call.call());
    } catch (Throwable t) {
      outcome.completeExceptionally(t);
    }
  }

  private boolean isParkedStill() {
    if (outcome.isDone()) {
      throw new AssertionError(thread.getName() + " ended instead of blocking: " + outcome);
    }
    return isParked();
  }

  /** Whether the thread is parked now: waiting for something, or in a blocking call. */
  public boolean isParked() {
    Thread.State state = thread.getState();
    return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
  }
}
