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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * What ShedLock expects of a lock provider (the checks of its provider test suite, which it does not publish),
 * and what a second node sees: against one backend, with two clients standing for two nodes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(30)
abstract class BatonLockProviderContract {
  private static final Duration FIVE_MINUTES = Duration.ofMinutes(5);
  private static final Duration PROMPTLY = Duration.ofSeconds(5);

  private LockClient client;
  private LockClient otherClient;
  private BatonLockProvider provider;
  private BatonLockProvider otherNode;
  private String name;

  /** Connects a new client to the test's store. */
  protected abstract LockClient connect();

  @BeforeAll
  void connectNodes() {
    client = connect();
    otherClient = connect();
    provider = new BatonLockProvider(client);
    otherNode = new BatonLockProvider(otherClient);
  }

  @AfterAll
  void closeNodes() {
    provider.close();
    otherNode.close();
    client.close();
    otherClient.close();
  }

  @BeforeEach
  void pickName() {
    name = "task-" + UUID.randomUUID();
  }

  @Test
  void createsTheLockAndFreesItOnUnlock() {
    SimpleLock lock = provider.lock(config(name, FIVE_MINUTES, Duration.ZERO)).orElseThrow();
    assertThat(isLockedAtStore(name)).isTrue();
    lock.unlock();
    assertThat(isLockedAtStore(name)).isFalse();
  }

  @Test
  void doesNotGiveAHeldLockAgainNotEvenToItsOwnThread() {
    SimpleLock lock = provider.lock(config(name, FIVE_MINUTES, Duration.ZERO)).orElseThrow();
    assertThat(provider.lock(config(name, FIVE_MINUTES, Duration.ZERO))).isEmpty();
    assertThat(otherNode.lock(config(name, FIVE_MINUTES, Duration.ZERO))).isEmpty();
    lock.unlock();
  }

  @Test
  void locksOfOtherNamesAreIndependent() {
    SimpleLock first = provider.lock(config(name, FIVE_MINUTES, Duration.ZERO)).orElseThrow();
    SimpleLock second = provider.lock(config(name + "-2", FIVE_MINUTES, Duration.ZERO)).orElseThrow();
    first.unlock();
    second.unlock();
  }

  @Test
  void locksAgainRightAfterUnlock() {
    for (int i = 0; i < 10; i++) {
      BatonLockProvider taker = i % 2 == 0 ? provider : otherNode;
      SimpleLock lock = taker.lock(config(name, FIVE_MINUTES, Duration.ZERO)).orElseThrow();
      assertThat(provider.lock(config(name, FIVE_MINUTES, Duration.ZERO))).isEmpty();
      lock.unlock();
    }
  }

  @Test
  void unlockTwiceIsAnError() {
    SimpleLock lock = provider.lock(config(name, FIVE_MINUTES, Duration.ZERO)).orElseThrow();
    lock.unlock();
    assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class).hasMessageContaining(name);
  }

  @Test
  void lockAtMostForFreesAForgottenLock() {
    Instant taken = Instant.now();
    provider.lock(config(name, Duration.ofMillis(100), Duration.ZERO)).orElseThrow();
    await().atMost(PROMPTLY).until(() -> !isLockedAtStore(name));
    assertThat(Duration.between(taken, Instant.now())).isGreaterThanOrEqualTo(Duration.ofMillis(100));
    SimpleLock again = otherNode.lock(config(name, FIVE_MINUTES, Duration.ZERO)).orElseThrow();
    again.unlock();
  }

  @Test
  void lockAtLeastForKeepsTheLockAfterAnEarlyUnlock() {
    LockConfiguration config = config(name, Duration.ofSeconds(4), Duration.ofSeconds(1));
    provider.lock(config).orElseThrow().unlock();

    assertThat(isLockedAtStore(name)).as("held until lockAtLeastFor passed").isTrue();
    assertThat(provider.lock(config(name, FIVE_MINUTES, Duration.ZERO))).isEmpty();
    assertThat(otherNode.lock(config(name, FIVE_MINUTES, Duration.ZERO))).isEmpty();

    SimpleLock next = await().atMost(PROMPTLY)
        .until(() -> otherNode.lock(config(name, FIVE_MINUTES, Duration.ZERO)), Optional::isPresent).orElseThrow();
    assertThat(ClockProvider.now()).isAfterOrEqualTo(config.getLockAtLeastUntil());
    next.unlock();
  }

  @Test
  void unlockAfterLockAtLeastForReleasesAtOnce() {
    LockConfiguration config = config(name, FIVE_MINUTES, Duration.ofMillis(1));
    SimpleLock lock = provider.lock(config).orElseThrow();
    await().atMost(PROMPTLY).until(() -> !ClockProvider.now().isBefore(config.getLockAtLeastUntil()));
    lock.unlock();
    assertThat(isLockedAtStore(name)).isFalse();
  }

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
        String jobName = name + "-" + job;
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
  void shedLocksTaskExecutorRunsTheTaskOnOneNodeOnly() {
    AtomicInteger runs = new AtomicInteger();
    DefaultLockingTaskExecutor here = new DefaultLockingTaskExecutor(provider);
    DefaultLockingTaskExecutor there = new DefaultLockingTaskExecutor(otherNode);
    LockConfiguration config = config(name, FIVE_MINUTES, Duration.ofMillis(500));
    // ShedLock runs a nested task of the same name on the same thread as already locked: the other node is another thread.
    here.executeWithLock((Runnable) () -> {
      runs.incrementAndGet();
      CompletableFuture.runAsync(() -> there.executeWithLock((Runnable) runs::incrementAndGet,
          config(name, FIVE_MINUTES, Duration.ZERO))).join();
    }, config);
    there.executeWithLock((Runnable) runs::incrementAndGet, config(name, FIVE_MINUTES, Duration.ZERO));
    assertThat(runs).hasValue(1);
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
