package dev.baton.engine.memory;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.ChainEnd;
import dev.baton.spi.Grant;
import dev.baton.spi.KeyWatch;
import dev.baton.spi.LockBackend;
import dev.baton.spi.Outcome;
import dev.baton.spi.ReleaseRequestListener;
import dev.baton.spi.WakeUp;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/** One client's connection to an {@link MemoryStore}: the SPI, each call one call of the store. */
final class MemoryBackend implements LockBackend {
  private final MemoryStore store;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile ReleaseRequestListener releaseRequests;
  /** The id of this backend's client, known from its first entry that listens for requests to release; else null. */
  private volatile String listeningAs;

  MemoryBackend(MemoryStore store) {
    this.store = store;
  }

  @Override
  public String name() {
    return "memory";
  }

  @Override
  public void checkKey(String key) {
    // Any key the engine accepts is a key here.
  }

  @Override
  public LockStatus status(String key) {
    return store.status(key);
  }

  @Override
  public Optional<KeyWatch> watchKey(String key, WakeUp changed) {
    return Optional.of(store.watch(key, changed));
  }

  @Override
  public List<LockStatus> list(String keyPrefix, int limit) {
    return store.list(keyPrefix, limit);
  }

  @Override
  public Attempt newAttempt(AcquireRequest request) {
    return new MemoryAttempt(request);
  }

  @Override
  public boolean acquiresInOrder() {
    return true;
  }

  @Override
  public List<Grant> acquireInOrder(List<AcquireRequest> requests) {
    return store.tryAcquireInOrder(requests);
  }

  @Override
  public CompletionStage<Boolean> renew(Grant grant, Duration expiry) {
    try {
      return CompletableFuture.completedFuture(store.renew(grant, expiry));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public boolean release(Grant grant) {
    return store.release(grant);
  }

  @Override
  public boolean rewritesHolders() {
    return true;
  }

  @Override
  public boolean rewriteHolder(Grant grant, LockHolder holder) {
    return store.rewriteHolder(grant, holder);
  }

  @Override
  public ChainEnd keepUnlessOthersWait(Grant grant, Duration expiry) {
    return store.keepUnlessOthersWait(grant, expiry);
  }

  @Override
  public int requestRelease(String key) {
    return store.requestRelease(key);
  }

  @Override
  public void setReleaseRequestListener(ReleaseRequestListener listener) {
    this.releaseRequests = listener;
  }

  @Override
  public synchronized void listenForReleaseRequests(Grant grant) {
    if (listeningAs == null && !closed.get()) {
      String clientId = grant.request().clientId();
      store.listen(clientId, releaseRequests);
      listeningAs = clientId;
    }
  }

  /** Ends this client's use of the store, which lives on while other clients or handles use it. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      synchronized (this) {
        if (listeningAs != null) {
          store.stopListening(listeningAs);
        }
      }
      store.close();
    }
  }

  @Override
  public String toString() {
    return store.toString();
  }

  /** One acquisition: a try at the store each time, waiting as a waiter of the key in between. */
  private final class MemoryAttempt implements Attempt {
    private final AcquireRequest request;

    private MemoryAttempt(AcquireRequest request) {
      this.request = request;
    }

    @Override
    public Outcome tryAcquire(WakeUp wakeUp) {
      Grant grant = store.tryAcquire(request, wakeUp);
      return grant != null ? Outcome.granted(grant) : Outcome.waitAtMost(store.nextTryWithin(request));
    }

    @Override
    public void stopWaiting() {
      store.leave(request, false);
    }

    @Override
    public void abandon() {
      store.checkReachable(request.ownerId());
      store.leave(request, true);
    }
  }
}
