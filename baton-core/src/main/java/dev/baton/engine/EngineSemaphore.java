package dev.baton.engine;

import dev.baton.DistributedSemaphore;
import dev.baton.Lease;
import dev.baton.LockOptions;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** A semaphore: the lease methods of a handle whose entries are permits. */
final class EngineSemaphore implements DistributedSemaphore {
  private final EngineLock permit;
  private final int permits;

  EngineSemaphore(EngineLock permit, int permits) {
    this.permit = permit;
    this.permits = permits;
  }

  @Override
  public String key() {
    return permit.key();
  }

  @Override
  public int permits() {
    return permits;
  }

  @Override
  public LockOptions options() {
    return permit.options();
  }

  @Override
  public Lease acquire() throws InterruptedException {
    return permit.acquire();
  }

  @Override
  public Lease acquire(Duration waitTime) throws InterruptedException {
    return permit.acquire(waitTime);
  }

  @Override
  public Optional<Lease> tryAcquire() {
    return permit.tryAcquire();
  }

  @Override
  public CompletableFuture<Lease> acquireAsync() {
    return permit.acquireAsync();
  }

  @Override
  public String toString() {
    return "DistributedSemaphore{key='" + key() + "', permits=" + permits + '}';
  }
}
