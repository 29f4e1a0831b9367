package dev.baton.engine;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A call of an engine test running on its own daemon thread, so that the test can see it wait and collect its result
 * or exception within a bound (the test kit's {@code BackgroundCall}, which baton-core's tests cannot depend on).
 *
 * @param <T> what the call returns
 */
final class BackgroundCall<T> {
  private static final Duration BLOCKED_WITHIN = Duration.ofSeconds(5);

  private final CompletableFuture<T> outcome = new CompletableFuture<>();
  private final Thread thread;

  private BackgroundCall(String name, Callable<T> call) {
    thread = new Thread(() -> run(call), name);
    thread.setDaemon(true);
  }

  /** Starts {@code call} on a new daemon thread named {@code name}. */
  static <T> BackgroundCall<T> start(String name, Callable<T> call) {
    BackgroundCall<T> started = new BackgroundCall<>(name, call);
    started.thread.start();
    return started;
  }

  /** Waits (up to 5 s) until the thread has been parked for {@code parkedFor} in a row: it waits for something. */
  void awaitBlocked(Duration parkedFor) {
    await("thread " + thread.getName() + " blocked")
        .during(parkedFor)
        .atMost(BLOCKED_WITHIN)
        .pollInterval(Duration.ofMillis(5))
        .until(this::isParkedStill);
  }

  /** Whether the call has returned or thrown. */
  boolean isDone() {
    return outcome.isDone();
  }

  /**
   * Waits up to {@code timeout} for the call to return.
   *
   * @throws AssertionError if it threw, or did not return in time
   */
  T result(Duration timeout) throws InterruptedException {
    try {
      return outcome.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError(thread.getName() + " threw instead of returning", e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError(thread.getName() + " did not return within " + timeout + ", " + where(), e);
    }
  }

  /**
   * Waits up to {@code timeout} for the call to throw, and returns what it threw.
   *
   * @throws AssertionError if it returned, or did not end in time
   */
  Throwable failure(Duration timeout) throws InterruptedException {
    try {
      T value = outcome.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      throw new AssertionError(thread.getName() + " returned " + value + " instead of throwing");
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionError(thread.getName() + " did not end within " + timeout + ", " + where(), e);
    }
  }

  /** Where the thread is: its state and stack. */
  private String where() {
    StringBuilder stack = new StringBuilder(thread.getState().toString());
    for (StackTraceElement frame : thread.getStackTrace()) {
      stack.append("\n\tat ").append(frame);
    }
    return stack.toString();
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
    Thread.State state = thread.getState();
    return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
  }
}
