package dev.baton.bench.suite;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockTimeoutException;
import dev.baton.etcd.EtcdLockClient;
import dev.baton.postgres.PostgresLockClient;
import dev.baton.redis.RedisLockClient;
import dev.baton.zookeeper.ZooKeeperLockClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The latency a remote waiter sees in the linger scenario: while one thread of a client runs the lingering lock/unlock
 * loop on a key, a second client of the same store (as another process would be) acquires the key with a wait (fair,
 * the default: ZooKeeper's non-fair waiters are invisible to a lingering holder), holds it {@link #HOLD}, releases it,
 * and waits until the loop has taken the lock back before it asks again. Each sample is "asked to got".
 */
final class RemoteWaiter {
  /** The samples of a full run: a few seconds per store. */
  static final int SAMPLES = 20;
  /** The system property that sets how many samples a run takes, {@link #SAMPLES} if unset. */
  static final String SAMPLES_PROPERTY = "bench.remoteAsks";
  /** How long the remote waiter waits at most: longer is reported as not served, not thrown. */
  static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration HOLD = Duration.ofMillis(5);
  /** Between samples, at least this long and this many cycles of the loop, so that the lock lingers again. */
  private static final Duration SPACING = Duration.ofMillis(100);
  private static final long SPACING_CYCLES = 50;
  private static final String KEY = "bench-linger-remote";

  private RemoteWaiter() {}

  /** How many samples a run takes: {@value #SAMPLES_PROPERTY}, {@link #SAMPLES} if unset. */
  static int samples() {
    int samples = Integer.getInteger(SAMPLES_PROPERTY, SAMPLES);
    if (samples < 1) {
      throw new IllegalArgumentException(SAMPLES_PROPERTY + " must be at least 1, not " + samples
          + "; leave it unset for the full run's " + SAMPLES + ".");
    }
    return samples;
  }

  /**
   * What one lingering implementation's remote waiter saw; {@code worst}, its longest ask and how many cycles the loop
   * ran during it (many: the holder did not see the waiter and kept re-granting; few: it let go, and what came after
   * was slow).
   */
  record Result(Implementation implementation, Samples served, int notServed, String failure, String worst) {
    /** Nothing measured: {@code implementation} failed with {@code failure}. */
    static Result failed(Implementation implementation, Exception failure) {
      return new Result(implementation, new Samples(), 0, failure.toString(), "none");
    }
  }

  /** {@code samples} remote waits on {@code implementation}, a lingering Baton mutex, on the run's servers. */
  static Result measure(Implementation implementation, Endpoints endpoints, int samples) {
    if (!implementation.lingers()) {
      throw new IllegalArgumentException(implementation + " does not linger: give one of the linger scenario's "
          + "lingering implementations (BATON_*_LINGERING).");
    }
    try (LockClient looping = connect(implementation.store(), endpoints);
        LockClient remote = connect(implementation.store(), endpoints)) {
      return measure(implementation, looping, remote, samples);
    } catch (Exception e) {
      return Result.failed(implementation, e);
    }
  }

  private static Result measure(Implementation implementation, LockClient looping, LockClient remote, int samples)
      throws Exception {
    DistributedLock loopLock =
        looping.lock(KEY, looping.defaultOptions().toBuilder().linger(BatonContender.LINGER).build());
    DistributedLock remoteLock = remote.lock(KEY, remote.defaultOptions().toBuilder().fair(true).build());
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong cycles = new AtomicLong();
    AtomicReference<Exception> loopFailure = new AtomicReference<>();
    Thread loop = new Thread(() -> {
      try {
        while (!stop.get()) {
          loopLock.acquire().close();
          cycles.incrementAndGet();
        }
      } catch (Exception e) {
        loopFailure.set(e);
      }
    }, "linger-loop");
    loop.start();
    Samples served = new Samples();
    int notServed = 0;
    long worstNanos = -1;
    long worstCycles = 0;
    boolean stalled = false;
    try {
      for (int i = 0; i < samples; i++) {
        if (!loopTookItBack(cycles, cycles.get(), loopFailure)) {
          stalled = true;
          break;
        }
        long cyclesBefore = cycles.get();
        long askedAt = System.nanoTime();
        try (Lease lease = remoteLock.acquire(WAIT)) {
          long took = System.nanoTime() - askedAt;
          served.add(took);
          if (took > worstNanos) {
            worstNanos = took;
            worstCycles = cycles.get() - cyclesBefore;
          }
          Thread.sleep(HOLD.toMillis());
        } catch (LockTimeoutException e) {
          notServed++;
        }
      }
    } finally {
      stop.set(true);
      loop.join(WAIT.toMillis());
    }
    Exception failure = loopFailure.get();
    String note = failure != null ? "the loop failed: " + failure
        : stalled ? "the loop did not take the lock back within " + WAIT.toSeconds() + " s"
        : loop.isAlive() ? "the loop did not stop within " + WAIT.toSeconds() + " s" : null;
    String worst = worstNanos < 0 ? "none" : "worst ask " + worstNanos / 1_000_000 + " ms, the loop ran " + worstCycles
        + " cycles during it";
    return new Result(implementation, served, notServed, note, worst);
  }

  /**
   * Waits {@link #SPACING}, then until the loop has run {@link #SPACING_CYCLES} cycles more than {@code from}: false if
   * it failed or did not within {@link #WAIT}.
   */
  private static boolean loopTookItBack(AtomicLong cycles, long from, AtomicReference<Exception> loopFailure)
      throws InterruptedException {
    Thread.sleep(SPACING.toMillis());
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (cycles.get() < from + SPACING_CYCLES) {
      if (loopFailure.get() != null || System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(1);
    }
    return true;
  }

  private static LockClient connect(Store store, Endpoints endpoints) {
    return switch (store) {
      case REDIS -> RedisLockClient.connect(endpoints.redisUri());
      case ZOOKEEPER -> ZooKeeperLockClient.connect(endpoints.zooKeeper());
      case ETCD -> EtcdLockClient.connect(endpoints.etcd());
      case POSTGRES -> PostgresLockClient.connect(endpoints.postgres());
      case MYSQL, REDIS_CLUSTER -> throw new IllegalArgumentException(store + " has no lingering implementation in "
          + "the linger scenario.");
    };
  }
}
