package dev.baton.spring;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockException;
import dev.baton.LockTimeoutException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;

/** Runs a {@link Locked} method under its lock: acquire, call, release (when a returned stage completes). */
final class LockedInterceptor implements MethodInterceptor {
  private static final Logger log = LoggerFactory.getLogger(LockedInterceptor.class);

  private final LockedMethods methods;
  private final Supplier<LockClient> client;
  private final BeanFactory beanFactory;
  private final DeferredReleases deferred;
  private final SkippedRuns skippedRuns;
  private final BooleanSupplier stopping;
  /** The keys each thread runs a locked method for, and under which side: what a nested call may reuse. */
  private final ThreadLocal<Map<String, Locked.Mode>> heldByThread = ThreadLocal.withInitial(HashMap::new);

  /** @param stopping whether the application is stopping: its client closes, or already has */
  LockedInterceptor(LockedMethods methods, Supplier<LockClient> client, BeanFactory beanFactory,
      DeferredReleases deferred, BooleanSupplier stopping) {
    this.methods = methods;
    this.stopping = stopping;
    this.client = client;
    this.beanFactory = beanFactory;
    this.deferred = deferred;
    this.skippedRuns = new SkippedRuns(beanFactory);
  }

  @Override
  public Object invoke(MethodInvocation invocation) throws Throwable {
    Object target = invocation.getThis();
    LockedMethod method = methods.get(invocation.getMethod(), AopUtils.getTargetClass(target));
    Object[] args = invocation.getArguments();
    String key = method.key(args, beanFactory);
    Map<String, Locked.Mode> held = heldByThread.get();
    Locked.Mode holding = held.get(key);
    if (holding == Locked.Mode.READ && method.mode() == Locked.Mode.WRITE) {
      throw new IllegalMonitorStateException(method.where() + " asks for the write lock of '" + key + "' in a call"
          + " that holds its read lock: a read lock cannot be upgraded. Take the write lock in the outer call.");
    }
    if (holding != null) {
      return invocation.proceed(); // the same side, or a read inside a write
    }
    if (method.whenTaken() == WhenTaken.SKIP && stopping.getAsBoolean()) {
      return skippedWhileStopping(method, key);
    }
    LockClient locks = client.get();
    Lease lease;
    try {
      DistributedLock lock = method.mode() == Locked.Mode.READ ? locks.readWriteLock(key).readLock() : locks.lock(key);
      lease = lock.acquire(method.options(locks.defaultOptions()));
    } catch (LockTimeoutException e) {
      return notAcquired(method, key, target, args, e);
    } catch (RuntimeException e) {
      if (method.whenTaken() == WhenTaken.SKIP && (stopping.getAsBoolean() || locks.isClosed())) {
        return skippedWhileStopping(method, key);
      }
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      if (method.whenTaken() == WhenTaken.SKIP && stopping.getAsBoolean()) {
        return skippedWhileStopping(method, key);
      }
      throw new LockException("Interrupted while " + method.where() + " waited for the lock '" + key + "'; it did not run.", e);
    }
    long grantedAt = System.nanoTime();
    log.debug("Lock '{}' (owner {}) taken for {}", key, lease.ownerId(), method.where());
    return callHolding(invocation, method, key, new Holding(lease, method, grantedAt), held);
  }

  private Object callHolding(MethodInvocation invocation, LockedMethod method, String key, Holding holding,
      Map<String, Locked.Mode> held) throws Throwable {
    boolean releaseNow = true;
    held.put(key, method.mode());
    try {
      Object result = invocation.proceed();
      if (method.isAsync() && result != null) {
        releaseNow = false;
        return ((CompletionStage<?>) result).whenComplete((value, error) -> release(holding));
      }
      return result;
    } finally {
      held.remove(key);
      if (releaseNow) {
        release(holding);
      }
    }
  }

  private Object notAcquired(LockedMethod method, String key, Object target, Object[] args, LockTimeoutException e)
      throws Throwable {
    switch (method.whenTaken()) {
      case FALLBACK -> {
        log.debug("Lock '{}' not acquired in time; {} falls back", key, method.where());
        return method.callFallback(target, args);
      }
      case SKIP -> {
        // One quiet line and no trace: the lock being taken is how a skipped run looks, not a fault.
        log.debug("Lock '{}' is taken; {} skipped this call", key, method.where());
        skippedRuns.count(method);
        return method.skipped();
      }
      default -> {
        if (method.isAsync()) {
          return CompletableFuture.failedFuture(e);
        }
        throw e;
      }
    }
  }

  /**
   * A run that comes as the application stops, its client closing or closed (a scheduler that outlives the client,
   * as Spring's default one can outside Spring Boot): skipped as a run that finds its lock taken is, quietly.
   */
  private Object skippedWhileStopping(LockedMethod method, String key) {
    log.debug("Baton's client is closing with the application; {} skipped this call for the lock '{}'",
        method.where(), key);
    return method.skipped();
  }

  /** Releases now, or when the method's {@code holdAtLeast} has passed. */
  private void release(Holding holding) {
    long heldNanos = System.nanoTime() - holding.grantedAt();
    long remaining = holding.method().holdAtLeast().toNanos() - heldNanos;
    Lease lease = holding.lease();
    if (remaining > 0) {
      log.debug("Lock '{}' (owner {}) kept {} ms more after {}", lease.key(), lease.ownerId(), remaining / 1_000_000,
          holding.method().where());
      deferred.releaseAfter(lease, remaining);
      return;
    }
    lease.close();
    log.debug("Lock '{}' (owner {}) released after {}", lease.key(), lease.ownerId(), holding.method().where());
  }

  /** A lock taken for one call. */
  private record Holding(Lease lease, LockedMethod method, long grantedAt) {}
}
