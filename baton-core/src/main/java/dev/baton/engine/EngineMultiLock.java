package dev.baton.engine;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockOptions;
import dev.baton.LockStatus.Mode;
import dev.baton.LockTimeoutException;
import dev.baton.Primitive;
import dev.baton.spi.KeyOrder;
import dev.baton.spi.QueueRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * A handle on several keys of one client, held all or none ({@link dev.baton.LockClient#multiLock}). It takes each
 * key's exclusive entry by the path a lock takes (the key's local turn, the store, a hand-over), one key after the
 * other in one global order, the keys sorted by code point ({@link KeyOrder}), within one deadline
 * ({@link MultiAcquisition}); where the store can, the next keys that are free in this client in one request
 * ({@link FreeKeys}); a failure releases the keys taken, and a key lost before every key is held makes it start
 * over from the first. As every multi-lock takes its keys in that order and a lock holds one key, no cycle of waits can
 * form. Holds no state of its own beyond the keys and the options.
 */
final class EngineMultiLock implements DistributedLock {
  private final Engine engine;
  private final ThreadHolds holds;
  private final List<String> keys;
  private final LockOptions options;
  private final LockOptions unbounded;

  /** @param keys two or more checked keys, sorted and distinct ({@link #sortedKeys}) */
  EngineMultiLock(Engine engine, ThreadHolds holds, List<String> keys, LockOptions options) {
    this.engine = engine;
    this.holds = holds;
    this.keys = keys;
    this.options = options;
    this.unbounded = options.withWaitTime(null);
  }

  /**
   * The keys of a multi-lock in the order it takes them: each checked as a lock's key is, sorted by code point,
   * duplicates merged.
   *
   * @throws IllegalArgumentException if {@code keys} is null or empty, or one of them is null or not acceptable
   */
  static List<String> sortedKeys(Engine engine, Collection<String> keys) {
    if (keys == null || keys.isEmpty()) {
      throw new IllegalArgumentException("A multi-lock needs at least one key but was given " + keys
          + "; pass the keys of the resources to lock together, e.g. List.of(\"accounts/1\", \"accounts/2\").");
    }
    TreeSet<String> sorted = new TreeSet<>(KeyOrder.BY_CODE_POINT);
    int index = 0;
    for (String key : keys) {
      if (key == null) {
        throw new IllegalArgumentException("Key " + index + " of the multi-lock " + new ArrayList<>(keys)
            + " is null; name each resource you lock, e.g. \"orders/42\".");
      }
      engine.checkKey(key);
      sorted.add(key);
      index++;
    }
    return List.copyOf(sorted);
  }

  @Override
  public String key() {
    return keys.get(0);
  }

  @Override
  public List<String> keys() {
    return keys;
  }

  @Override
  public LockOptions options() {
    return options;
  }

  @Override
  public Lease acquire() throws InterruptedException {
    return acquire(options, true);
  }

  @Override
  public Lease acquire(Duration waitTime) throws InterruptedException {
    if (waitTime == null) {
      throw new IllegalArgumentException("The wait time for multi-lock " + keys + " must not be null; use acquire()"
          + " to wait without limit.");
    }
    return acquire(options.withWaitTime(waitTime), true);
  }

  @Override
  public Lease acquire(LockOptions options) throws InterruptedException {
    return acquire(checked(options), true);
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
    AsyncMultiAcquisition acquisition = new AsyncMultiAcquisition(engine, new MultiAcquisition(engine, keys, checked(options)));
    acquisition.begin();
    return acquisition;
  }

  /**
   * Takes the keys in order within the options' one wait time; a failure releases those taken. A key lost while a
   * later one is waited for stops that wait, and the keys are taken again from the first ({@link MultiAcquisition}).
   */
  private MultiLease acquire(LockOptions options, boolean interruptible) throws InterruptedException {
    engine.ensureOpen();
    MultiAcquisition acquisition = new MultiAcquisition(engine, keys, options);
    while (true) {
      try {
        boolean more = true;
        while (more) {
          // The next keys free in this client in one request where the store can; else the next key, which may wait.
          List<EngineLease> free = FreeKeys.acquire(engine, acquisition.keysLeft(), Primitive.MULTI_LOCK,
              acquisition.partOptions(), acquisition.multiLock());
          more = !free.isEmpty() ? acquisition.tookEach(free)
              : acquisition.took(engine.acquire(acquisition.nextKey(), QueueRule.EXCLUSIVE, Primitive.MULTI_LOCK,
                  acquisition.partOptions(), acquisition.multiLock(), acquisition.nextDeadline(), interruptible));
        }
        return acquisition.lease();
      } catch (LockTimeoutException e) {
        if (acquisition.startOver()) {
          continue; // a key was lost, which stopped the wait for the next one
        }
        LockTimeoutException timeout = acquisition.timeout();
        acquisition.abandon(timeout);
        throw timeout;
      } catch (Throwable t) {
        acquisition.abandon(t);
        throw t;
      }
    }
  }

  @Override
  public void lock() {
    try {
      holds.enterAll(keys, () -> acquire(unbounded, false));
    } catch (InterruptedException e) {
      throw new IllegalStateException("lock() is not interruptible", e);
    }
  }

  @Override
  public void lockInterruptibly() throws InterruptedException {
    holds.enterAll(keys, () -> acquire(unbounded, true));
  }

  @Override
  public boolean tryLock() {
    try {
      return holds.enterAll(keys, this::tryOnce);
    } catch (InterruptedException e) {
      throw new IllegalStateException("tryLock() does not wait", e);
    }
  }

  @Override
  public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
    if (unit == null) {
      throw new IllegalArgumentException("The time unit of tryLock on multi-lock " + keys + " must not be null.");
    }
    LockOptions timed = options.withWaitTime(Duration.ofNanos(unit.toNanos(Math.max(0, time))));
    return holds.enterAll(keys, () -> {
      try {
        return acquire(timed, true);
      } catch (LockTimeoutException e) {
        return null;
      }
    });
  }

  @Override
  public void unlock() {
    holds.exit(ThreadHolds.multiName(keys), Mode.EXCLUSIVE);
  }

  @Override
  public boolean isHeldByCurrentThread() {
    return holds.isHeldByCurrentThread(ThreadHolds.multiName(keys), Mode.EXCLUSIVE);
  }

  @Override
  public Condition newCondition() {
    throw new UnsupportedOperationException("Baton locks have no conditions: a condition across processes needs"
        + " its own protocol. Signal through the store (a queue, a key you watch) instead.");
  }

  private MultiLease tryOnce() {
    try {
      return acquire(options.withWaitTime(Duration.ZERO), false);
    } catch (LockTimeoutException e) {
      return null;
    } catch (InterruptedException e) {
      throw new IllegalStateException("an uninterruptible acquire was interrupted", e);
    }
  }

  private LockOptions checked(LockOptions options) {
    if (options == null) {
      throw new IllegalArgumentException("The options for multi-lock " + keys + " must not be null; use"
          + " LockOptions.defaults().");
    }
    return options;
  }

  @Override
  public String toString() {
    return "DistributedLock{keys=" + keys + ", multi-lock, backend=" + engine.backend().name() + '}';
  }
}
