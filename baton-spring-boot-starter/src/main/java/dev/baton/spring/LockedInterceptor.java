package dev.baton.spring;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockException;
import dev.baton.LockTimeoutException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
  private final ThreadLocal<Set<String>> heldByThread = ThreadLocal.withInitial(HashSet::new);

  LockedInterceptor(LockedMethods methods, Supplier<LockClient> client, BeanFactory beanFactory) {
    this.methods = methods;
    this.client = client;
    this.beanFactory = beanFactory;
  }

  @Override
  public Object invoke(MethodInvocation invocation) throws Throwable {
    Object target = invocation.getThis();
    LockedMethod method = methods.get(invocation.getMethod(), AopUtils.getTargetClass(target));
    Object[] args = invocation.getArguments();
    String key = method.key(args, beanFactory);
    Set<String> held = heldByThread.get();
    if (held.contains(key)) {
      return invocation.proceed();
    }
    LockClient locks = client.get();
    Lease lease;
    try {
      lease = locks.lock(key).acquire(method.options(locks.defaultOptions()));
    } catch (LockTimeoutException e) {
      return notAcquired(method, key, target, args, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LockException("Interrupted while " + method.where() + " waited for the lock '" + key + "'; it did not run.", e);
    }
    log.debug("Lock '{}' (owner {}) taken for {}", key, lease.ownerId(), method.where());
    return callHolding(invocation, method, key, lease, held);
  }

  private Object callHolding(MethodInvocation invocation, LockedMethod method, String key, Lease lease, Set<String> held)
      throws Throwable {
    boolean releaseNow = true;
    held.add(key);
    try {
      Object result = invocation.proceed();
      if (method.isAsync() && result != null) {
        releaseNow = false;
        return ((CompletionStage<?>) result).whenComplete((value, error) -> release(lease, method));
      }
      return result;
    } finally {
      held.remove(key);
      if (releaseNow) {
        release(lease, method);
      }
    }
  }

  private static Object notAcquired(LockedMethod method, String key, Object target, Object[] args, LockTimeoutException e)
      throws Throwable {
    if (method.hasFallback()) {
      log.debug("Lock '{}' not acquired in time; {} falls back", key, method.where());
      return method.callFallback(target, args);
    }
    if (method.isAsync()) {
      return CompletableFuture.failedFuture(e);
    }
    throw e;
  }

  private static void release(Lease lease, LockedMethod method) {
    lease.close();
    log.debug("Lock '{}' (owner {}) released after {}", lease.key(), lease.ownerId(), method.where());
  }
}
