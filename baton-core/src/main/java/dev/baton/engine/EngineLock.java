package dev.baton.engine;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.Primitive;
import dev.baton.spi.QueueRule;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * A handle on one key of one client, taking entries under one rule: a mutex or a write lock ({@link QueueRule#EXCLUSIVE}),
 * a read lock ({@link QueueRule#SHARED}), a semaphore's permits. Holds no state of its own beyond the key, the rule, the
 * primitive it serves (which observers are told) and the options.
 */
final class EngineLock implements DistributedLock {
  private final Engine engine;
  private final ThreadHolds holds;
  private final String key;
  private final QueueRule rule;
  private final Primitive primitive;
  private final LockOptions options;
  private final LockOptions unbounded;

  EngineLock(Engine engine, ThreadHolds holds, String key, QueueRule rule, Primitive primitive, LockOptions options) {
    this.engine = engine;
    this.holds = holds;
    this.key = key;
    this.rule = rule;
    this.primitive = primitive;
    this.options = options;
    this.unbounded = options.withWaitTime(null);
  }

  @Override
  public String key() {
    return key;
  }

  @Override
  public LockOptions options() {
    return options;
  }

  @Override
  public Lease acquire() throws InterruptedException {
    return engine.acquire(key, rule, primitive, options, true);
  }

  @Override
  public Lease acquire(Duration waitTime) throws InterruptedException {
    if (waitTime == null) {
      throw new IllegalArgumentException("The wait time for '" + key + "' must not be null; use acquire() to wait without limit.");
    }
    return engine.acquire(key, rule, primitive, options.withWaitTime(waitTime), true);
  }

  @Override
  public Lease acquire(LockOptions options) throws InterruptedException {
    return engine.acquire(key, rule, primitive, checked(options), true);
  }

  @Override
  public Optional<Lease> tryAcquire() {
    return Optional.ofNullable(tryOnce());
  }

  @Override
  public CompletableFuture<Lease> acquireAsync() {
    return acquireAsync(options);
  }

  @Override
  public CompletableFuture<Lease> acquireAsync(LockOptions options) {
    return engine.acquireAsync(key, rule, primitive, checked(options));
  }

  @Override
  public void lock() {
    try {
      holds.enter(key, rule.mode(), () -> engine.acquire(key, rule, primitive, unbounded, false));
    } catch (InterruptedException e) {
      throw new IllegalStateException("lock() is not interruptible", e);
    }
  }

  @Override
  public void lockInterruptibly() throws InterruptedException {
    holds.enter(key, rule.mode(), () -> engine.acquire(key, rule, primitive, unbounded, true));
  }

  @Override
  public boolean tryLock() {
    try {
      return holds.enter(key, rule.mode(), this::tryOnce);
    } catch (InterruptedException e) {
      throw new IllegalStateException("tryLock() does not wait", e);
    }
  }

  @Override
  public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
    if (unit == null) {
      throw new IllegalArgumentException("The time unit of tryLock on '" + key + "' must not be null.");
    }
    LockOptions timed = options.withWaitTime(Duration.ofNanos(unit.toNanos(Math.max(0, time))));
    return holds.enter(key, rule.mode(), () -> {
      try {
        return engine.acquire(key, rule, primitive, timed, true);
      } catch (LockTimeoutException e) {
        return null;
      }
    });
  }

  @Override
  public void unlock() {
    holds.exit(key, rule.mode());
  }

  @Override
  public boolean isHeldByCurrentThread() {
    return holds.isHeldByCurrentThread(key, rule.mode());
  }

  @Override
  public Condition newCondition() {
    throw new UnsupportedOperationException("Baton locks have no conditions: a condition across processes needs"
        + " its own protocol. Signal through the store (a queue, a key you watch) instead.");
  }

  private EngineLease tryOnce() {
    try {
      return engine.acquire(key, rule, primitive, options.withWaitTime(Duration.ZERO), false);
    } catch (LockTimeoutException e) {
      return null;
    } catch (InterruptedException e) {
      throw new IllegalStateException("an uninterruptible acquire was interrupted", e);
    }
  }

  private LockOptions checked(LockOptions options) {
    if (options == null) {
      throw new IllegalArgumentException("The options for '" + key + "' must not be null; use LockOptions.defaults().");
    }
    return options;
  }

  @Override
  public String toString() {
    return "DistributedLock{key='" + key + "', " + rule + ", backend=" + engine.backend().name() + '}';
  }
}
