package dev.baton.engine;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.ChainEnd;
import dev.baton.spi.Grant;
import dev.baton.spi.KeyWatch;
import dev.baton.spi.LockBackend;
import dev.baton.spi.LossListener;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import dev.baton.spi.ReleaseRequestListener;
import dev.baton.spi.WakeUp;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A backend that counts the acquisitions, renewals, releases and rewrites of holder records its engine makes, passing
 * every call on to another; it may say that it cannot rewrite records, as a store without
 * {@link LockBackend#rewriteHolder} does, and hold the answers to grants, renewals and keeps at the end of a chain of
 * hand-overs back until the test lets them through, as a slow store would; and tell the test of some calls as they
 * come, so that it may act, or hold the calling thread, at that moment.
 */
final class CountingBackend implements LockBackend {
  /** How long, in real time, an answer held back waits for the test at most. */
  private static final Duration HELD_AT_MOST = Duration.ofSeconds(20);

  private final LockBackend store;
  private final boolean rewrites;
  final AtomicInteger attempts = new AtomicInteger();
  final AtomicInteger renewals = new AtomicInteger();
  final AtomicInteger releases = new AtomicInteger();
  final AtomicInteger rewritten = new AtomicInteger();
  /** While set, each renewal's answer waits in {@link #heldRenewals} until the test runs it. */
  volatile boolean holdingRenewals;
  final Queue<Runnable> heldRenewals = new ConcurrentLinkedQueue<>();
  final AtomicInteger grants = new AtomicInteger();
  /** While set, each grant of an attempt, counted in {@link #grants} once the store gave it, waits until this opens. */
  volatile CountDownLatch grantAnswers;
  final AtomicInteger keeps = new AtomicInteger();
  /** While set, each keep's answer, counted in {@link #keeps} once the store gave it, waits until this opens. */
  volatile CountDownLatch keepAnswers;

  /**
   * Whether it passes the store's {@link #acquiresInOrder} on; if not (at first), a multi-lock takes its keys one by
   * one, each attempt counted.
   */
  volatile boolean takesInOrder;
  /** While set, told the key of each acquisition checked, before the store checks it: a test acts at that moment. */
  volatile Consumer<String> checkingAcquisition;
  /** While set, told each acquisition's request before the store makes its attempt: a test may hold the thread there. */
  volatile Consumer<AcquireRequest> attempting;
  /** While set, run each time the engine asks whether records can be rewritten, as a hand-over does. */
  volatile Runnable askingRewrites;
  /** The engine's loss listener, as it set it: a test tells the client through it that its entries are gone. */
  volatile LossListener losses;

  CountingBackend(LockBackend store) {
    this(store, true);
  }

  /** @param rewrites whether it passes the store's {@link #rewritesHolders} on, or says it cannot */
  CountingBackend(LockBackend store, boolean rewrites) {
    this.store = store;
    this.rewrites = rewrites;
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
  public boolean acquiresInOrder() {
    return takesInOrder && store.acquiresInOrder();
  }

  @Override
  public List<Grant> acquireInOrder(List<AcquireRequest> requests) {
    return store.acquireInOrder(requests);
  }

  @Override
  public void checkAcquisition(String key, QueueRule rule, boolean fair) {
    Consumer<String> checking = checkingAcquisition;
    if (checking != null) {
      checking.accept(key);
    }
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
    Consumer<AcquireRequest> before = attempting;
    if (before != null) {
      before.accept(request);
    }
    Attempt attempt = store.newAttempt(request);
    return new Attempt() {
      @Override
      public Outcome tryAcquire(WakeUp wakeUp) {
        Outcome outcome = attempt.tryAcquire(wakeUp);
        if (outcome.isGranted()) {
          grants.incrementAndGet();
          awaitLetThrough(grantAnswers, "grant");
        }
        return outcome;
      }

      @Override
      public void stopWaiting() {
        attempt.stopWaiting();
      }

      @Override
      public void abandon() {
        attempt.abandon();
      }
    };
  }

  @Override
  public CompletionStage<Boolean> renew(Grant grant, Duration ttl) {
    renewals.incrementAndGet();
    CompletionStage<Boolean> answer = store.renew(grant, ttl);
    if (!holdingRenewals) {
      return answer;
    }
    CompletableFuture<Boolean> late = new CompletableFuture<>();
    answer.whenComplete((ours, error) -> heldRenewals.add(() -> {
      if (error != null) {
        late.completeExceptionally(error);
      } else {
        late.complete(ours);
      }
    }));
    return late;
  }

  @Override
  public boolean release(Grant grant) {
    releases.incrementAndGet();
    return store.release(grant);
  }

  @Override
  public boolean rewritesHolders() {
    Runnable asking = askingRewrites;
    if (asking != null) {
      asking.run();
    }
    return rewrites && store.rewritesHolders();
  }

  @Override
  public boolean rewriteHolder(Grant grant, LockHolder holder) {
    rewritten.incrementAndGet();
    return store.rewriteHolder(grant, holder);
  }

  @Override
  public ChainEnd keepUnlessOthersWait(Grant grant, Duration ttl) {
    ChainEnd end = store.keepUnlessOthersWait(grant, ttl);
    keeps.incrementAndGet();
    awaitLetThrough(keepAnswers, "keep");
    return end;
  }

  /** Waits, if {@code held} is set, until the test opens it: the answer to a {@code call} comes then. */
  private static void awaitLetThrough(CountDownLatch held, String call) {
    if (held == null) {
      return;
    }
    try {
      if (!held.await(HELD_AT_MOST.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new AssertionError("The test did not let the " + call + "'s answer through within " + HELD_AT_MOST);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("Interrupted while the " + call + "'s answer was held back", e);
    }
  }

  @Override
  public void setLossListener(LossListener listener) {
    losses = listener;
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
