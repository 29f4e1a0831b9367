package dev.baton.engine;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The releases sent ahead of their answers ({@link EngineLease#releaseInOrder}) whose leases still wait for them, so
 * that closing the client writes their final states before it stops the threads that tell of them.
 */
final class ReleasesInFlight {
  private final Set<CompletableFuture<?>> answers = ConcurrentHashMap.newKeySet();

  /** Keeps {@code answered}, which completes once the lease's final state is written, until it completes. */
  void add(CompletableFuture<?> answered) {
    answers.add(answered);
    answered.whenComplete((result, error) -> answers.remove(answered));
  }

  /** Waits at most {@code millis} for the answers still on their way; those that have not come are left to come. */
  void await(long millis) {
    try {
      CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(millis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // A failed answer has written its lease's state all the same; one that did not come is the store's to expire.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
