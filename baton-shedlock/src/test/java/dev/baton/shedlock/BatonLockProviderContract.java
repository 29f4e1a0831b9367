package dev.baton.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.LockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.test.support.AbstractExtensibleLockProviderIntegrationTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ShedLock's own provider test suite against one backend, and what that suite does not check: a second node
 * (another client), lockAtLeastFor kept by Baton, shortening a lock, the key prefix, bad arguments and closing
 * the provider. Each test has a lock name and two clients of its own.
 */
@Timeout(30)
abstract class BatonLockProviderContract extends AbstractExtensibleLockProviderIntegrationTest {
  private static final Duration FIVE_MINUTES = Duration.ofMinutes(5);
  private static final Duration PROMPTLY = Duration.ofSeconds(5);

  private LockClient client;
  private LockClient otherClient;
  private BatonLockProvider provider;
  private BatonLockProvider otherNode;

  /** Connects a new client to the test's store. */
  protected abstract LockClient connect();

  @BeforeEach
  void connectNodes() {
    client = connect();
    otherClient = connect();
    provider = new BatonLockProvider(client);
    otherNode = new BatonLockProvider(otherClient);
  }

  @AfterEach
  void closeNodes() {
    provider.close();
    otherNode.close();
    client.close();
    otherClient.close();
  }

  @Override
  protected ExtensibleLockProvider getLockProvider() {
    return provider;
  }

  @Override
  protected void assertLocked(String lockName) {
    assertThat(isLockedAtStore(lockName)).as("lock '%s' held at the store", lockName).isTrue();
  }

  /**
   * Unlocked at the store within a moment: where the client's own timer ends a hold timeout (ZooKeeper, etcd),
   * the release reaches the store a round trip after the timer fired on the client's thread, and an
   * {@code extend} that finds the lock expired may return while that release is on its way.
   */
  @Override
  protected void assertUnlocked(String lockName) {
    await().atMost(Duration.ofSeconds(2)).untilAsserted(() ->
        assertThat(isLockedAtStore(lockName)).as("lock '%s' held at the store", lockName).isFalse());
  }

  /**
   * ShedLock's fuzz test retries refused locks without pausing, and Baton refuses a lock its client holds
   * without asking the store: 8 spinning threads then starve the store's process of a small machine's cores
   * (etcd takes 30-40 s on two cores, 5 s with a 1 ms pause between tries). Hence the longer bound.
   */
  @Override
  @Test
  @Timeout(120)
  public void fuzzTestShouldPass() throws ExecutionException, InterruptedException {
    super.fuzzTestShouldPass();
  }

  @Test
  void lockAtLeastForKeepsOtherNodesOutAfterAnEarlyUnlock() {
    LockConfiguration config = config(LOCK_NAME1, Duration.ofSeconds(4), Duration.ofSeconds(1));
    provider.lock(config).orElseThrow().unlock();

    assertLocked(LOCK_NAME1);
    assertThat(otherNode.lock(config(LOCK_NAME1, FIVE_MINUTES, Duration.ZERO))).isEmpty();

    SimpleLock next = await().atMost(PROMPTLY)
        .until(() -> otherNode.lock(config(LOCK_NAME1, FIVE_MINUTES, Duration.ZERO)), Optional::isPresent).orElseThrow();
    assertThat(ClockProvider.now()).isAfterOrEqualTo(config.getLockAtLeastUntil());
    next.unlock();
  }

  @Test
  void unlockAfterLockAtLeastForReleasesAtOnce() {
    LockConfiguration config = config(LOCK_NAME1, FIVE_MINUTES, Duration.ofMillis(1));
    SimpleLock lock = provider.lock(config).orElseThrow();
    await().atMost(PROMPTLY).until(() -> !ClockProvider.now().isBefore(config.getLockAtLeastUntil()));
    lock.unlock();
    assertUnlocked(LOCK_NAME1);
  }

  @Test
  void extendCanShortenTheLock() {
    SimpleLock lock = provider.lock(config(LOCK_NAME1, FIVE_MINUTES, Duration.ZERO)).orElseThrow();
    Instant extendedAt = ClockProvider.now();
    SimpleLock shortened = lock.extend(Duration.ofMillis(300), Duration.ZERO).orElseThrow();

    SimpleLock next = await().atMost(PROMPTLY)
        .until(() -> otherNode.lock(config(LOCK_NAME1, FIVE_MINUTES, Duration.ZERO)), Optional::isPresent).orElseThrow();
    assertThat(Duration.between(extendedAt, ClockProvider.now())).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    assertThat(shortened.extend(FIVE_MINUTES, Duration.ZERO)).as("extending the expired lock").isEmpty();
    next.unlock();
  }

  /** ShedLock's fuzz test uses one provider; here the task's lock goes back and forth between two clients. */
  @Test
  void runsEachTaskOnceAtATimeAcrossNodes() throws Exception {
    AtomicInteger first = new AtomicInteger();
    AtomicInteger second = new AtomicInteger();
    int[] counters = new int[2];
    int threads = 8;
    int iterations = 20;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        BatonLockProvider node = t % 2 == 0 ? provider : otherNode;
        int job = t % 4 < 2 ? 0 : 1;
        AtomicInteger runs = job == 0 ? first : second;
        String jobName = LOCK_NAME1 + "-" + job;
        done.add(pool.submit(() -> {
          for (int i = 0; i < iterations; ) {
            Optional<SimpleLock> lock = node.lock(config(jobName, FIVE_MINUTES, Duration.ZERO));
            if (lock.isPresent()) {
              int seen = counters[job];
              Thread.yield();
              counters[job] = seen + 1;
              runs.incrementAndGet();
              lock.get().unlock();
              i++;
            }
          }
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(counters[0]).isEqualTo(first.get()).isEqualTo(threads / 2 * iterations);
    assertThat(counters[1]).isEqualTo(second.get()).isEqualTo(threads / 2 * iterations);
  }

  @Test
  void locksAreKeysUnderThePrefix() {
    BatonLockProvider jobs = new BatonLockProvider(client, "jobs/");
    BatonLockProvider bare = new BatonLockProvider(client, "");
    SimpleLock prefixed = jobs.lock(config(LOCK_NAME1, FIVE_MINUTES, Duration.ZERO)).orElseThrow();
    assertThat(otherClient.status("jobs/" + LOCK_NAME1).isHeld()).as("the key jobs/NAME").isTrue();
    assertUnlocked(LOCK_NAME1);

    SimpleLock unprefixed = bare.lock(config(LOCK_NAME1, FIVE_MINUTES, Duration.ZERO)).orElseThrow();
    assertThat(otherClient.status(LOCK_NAME1).isHeld()).as("the key NAME").isTrue();
    SimpleLock defaultPrefixed = provider.lock(config(LOCK_NAME1, FIVE_MINUTES, Duration.ZERO)).orElseThrow();
    assertLocked(LOCK_NAME1);

    prefixed.unlock();
    unprefixed.unlock();
    defaultPrefixed.unlock();
    jobs.close();
    bare.close();
  }

  @Test
  void closingTheProviderLeavesDeferredReleasesToLockAtMostForAndTheClientOpen() {
    LockConfiguration config = config(LOCK_NAME1, Duration.ofSeconds(2), Duration.ofMillis(500));
    provider.lock(config).orElseThrow().unlock();
    provider.close();
    provider.close();

    assertThat(client.isClosed()).as("the client after the provider closed").isFalse();
    await("the lock kept past its lockAtLeastFor").atMost(PROMPTLY)
        .until(() -> ClockProvider.now().isAfter(config.getLockAtLeastUntil().plusMillis(300)));
    assertLocked(LOCK_NAME1);
    await("the lock freed by its lockAtMostFor").atMost(PROMPTLY).until(() -> !isLockedAtStore(LOCK_NAME1));
    assertThat(ClockProvider.now()).isAfterOrEqualTo(config.getLockAtMostUntil());
  }

  @Test
  void badArgumentsAreRejectedWithTheFix() {
    assertThatThrownBy(() -> new BatonLockProvider(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("LockClient");
    assertThatThrownBy(() -> new BatonLockProvider(client, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"\"");
  }

  private boolean isLockedAtStore(String lockName) {
    return otherClient.status(BatonLockProvider.DEFAULT_PREFIX + lockName).isHeld();
  }

  private static LockConfiguration config(String lockName, Duration lockAtMostFor, Duration lockAtLeastFor) {
    return new LockConfiguration(ClockProvider.now(), lockName, lockAtMostFor, lockAtLeastFor);
  }
}
