package dev.baton.engine;

import dev.baton.LockStatus;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.ChainEnd;
import dev.baton.spi.Grant;
import dev.baton.spi.KeyWatch;
import dev.baton.spi.LockBackend;
import dev.baton.spi.LossListener;
import dev.baton.spi.QueueRule;
import dev.baton.spi.ReleaseRequestListener;
import dev.baton.spi.WakeUp;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/** A backend that counts the acquisitions and releases its engine makes, passing every call on to another. */
final class CountingBackend implements LockBackend {
  private final LockBackend store;
  final AtomicInteger attempts = new AtomicInteger();
  final AtomicInteger releases = new AtomicInteger();

  CountingBackend(LockBackend store) {
    this.store = store;
  }

  @Override
  public String name() {
    return store.name();
  }

  @Override
  public void checkKey(String key) {
    store.checkKey(key);
  }

  @Override
  public void checkAcquisition(String key, QueueRule rule, boolean fair) {
    store.checkAcquisition(key, rule, fair);
  }

  @Override
  public Duration maxTtl() {
    return store.maxTtl();
  }

  @Override
  public LockStatus status(String key) {
    return store.status(key);
  }

  @Override
  public List<LockStatus> list(String keyPrefix, int limit) {
    return store.list(keyPrefix, limit);
  }

  @Override
  public Optional<KeyWatch> watchKey(String key, WakeUp changed) {
    return store.watchKey(key, changed);
  }

  @Override
  public Attempt newAttempt(AcquireRequest request) {
    attempts.incrementAndGet();
    return store.newAttempt(request);
  }

  @Override
  public CompletionStage<Boolean> renew(Grant grant, Duration ttl) {
    return store.renew(grant, ttl);
  }

  @Override
  public boolean release(Grant grant) {
    releases.incrementAndGet();
    return store.release(grant);
  }

  @Override
  public ChainEnd keepUnlessOthersWait(Grant grant, Duration ttl) {
    return store.keepUnlessOthersWait(grant, ttl);
  }

  @Override
  public void setLossListener(LossListener listener) {
    store.setLossListener(listener);
  }

  @Override
  public int requestRelease(String key) {
    return store.requestRelease(key);
  }

  @Override
  public void setReleaseRequestListener(ReleaseRequestListener listener) {
    store.setReleaseRequestListener(listener);
  }

  @Override
  public void listenForReleaseRequests(Grant grant) {
    store.listenForReleaseRequests(grant);
  }

  @Override
  public void close() {
    store.close();
  }
}
