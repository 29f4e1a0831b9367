package dev.baton.spring.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/** What Spring Integration expects of a lock registry, against one backend, with two clients standing for two processes. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(30)
abstract class BatonLockRegistryContract {
  private static final Duration PROMPTLY = Duration.ofSeconds(5);

  private LockClient client;
  private LockClient otherClient;
  private BatonLockRegistry registry;
  private BatonLockRegistry otherProcess;
  private String key;

  /** Connects a new client to the test's store. */
  protected abstract LockClient connect();

  @BeforeAll
  void connectProcesses() {
    client = connect();
    otherClient = connect();
    registry = new BatonLockRegistry(client);
    otherProcess = new BatonLockRegistry(otherClient);
  }

  @AfterAll
  void closeProcesses() {
    client.close();
    otherClient.close();
  }

  @BeforeEach
  void pickKey() {
    key = "group-" + UUID.randomUUID();
  }

  @Test
  void aLockedKeyIsTakenForOtherThreadsAndProcessesUntilUnlocked() throws Exception {
    Lock lock = registry.obtain(key);
    lock.lock();
    try {
      assertThat(inOtherThread(() -> registry.obtain(key).tryLock())).isFalse();
      assertThat(otherProcess.obtain(key).tryLock(50, TimeUnit.MILLISECONDS)).isFalse();
      assertThat(client.status(BatonLockRegistry.DEFAULT_PREFIX + key).isHeld()).isTrue();
    } finally {
      lock.unlock();
    }
    Lock there = otherProcess.obtain(key);
    assertThat(there.tryLock()).isTrue();
    there.unlock();
  }

  @Test
  void isReentrantForTheThreadThatHoldsIt() {
    Lock lock = registry.obtain(key);
    lock.lock();
    assertThat(registry.obtain(key).tryLock()).isTrue();
    lock.unlock();
    assertThat(otherProcess.obtain(key).tryLock()).as("still held once").isFalse();
    lock.unlock();
    assertThat(otherProcess.obtain(key).tryLock()).isTrue();
    otherProcess.obtain(key).unlock();
  }

  @Test
  void onlyTheHoldingThreadMayUnlock() throws Exception {
    Lock lock = registry.obtain(key);
    lock.lock();
    try {
      CompletableFuture<Void> foreignUnlock = CompletableFuture.runAsync(() -> registry.obtain(key).unlock());
      assertThatThrownBy(foreignUnlock::join).hasCauseInstanceOf(IllegalMonitorStateException.class);
    } finally {
      lock.unlock();
    }
  }

  @Test
  void executeLockedRunsOneCallerAtATimeAcrossProcesses() throws Exception {
    int[] counter = new int[1];
    int threads = 4;
    int rounds = 25;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        BatonLockRegistry process = t % 2 == 0 ? registry : otherProcess;
        done.add(pool.submit(() -> {
          for (int i = 0; i < rounds; i++) {
            process.executeLocked(key, () -> {
              int seen = counter[0];
              Thread.yield();
              counter[0] = seen + 1;
            });
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(counter[0]).isEqualTo(threads * rounds);
  }

  @Test
  void executeLockedWithAWaitTimesOutWhileAnotherProcessHoldsTheKey() throws Exception {
    Lock lock = otherProcess.obtain(key);
    lock.lock();
    try {
      assertThatThrownBy(() -> registry.executeLocked(key, Duration.ofMillis(100), () -> { }))
          .isInstanceOf(TimeoutException.class);
    } finally {
      lock.unlock();
    }
  }

  @Test
  void renewLockChecksThatTheThreadHoldsTheLock() {
    assertThatThrownBy(() -> registry.renewLock(key)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(key).hasMessageContaining("not held by this thread");
    Lock lock = registry.obtain(key);
    lock.lock();
    try {
      registry.renewLock(key);
    } finally {
      lock.unlock();
    }
  }

  @Test
  void keysAreAnyObjectByTheirString() {
    long orderId = 42 + System.nanoTime();
    Lock lock = registry.obtain(orderId);
    lock.lock();
    try {
      assertThat(client.status(BatonLockRegistry.DEFAULT_PREFIX + orderId).isHeld()).isTrue();
    } finally {
      lock.unlock();
    }
  }

  @Test
  void oneLeaderAtATimeWithLeaderInitiators() {
    RecordingCandidate first = new RecordingCandidate("first", key);
    RecordingCandidate second = new RecordingCandidate("second", key);
    LockRegistryLeaderInitiator here = initiator(registry, first);
    LockRegistryLeaderInitiator there = initiator(otherProcess, second);
    try {
      here.start();
      there.start();
      await().atMost(PROMPTLY).until(() -> first.leader || second.leader);
      assertThat(first.leader && second.leader).isFalse();
      LockRegistryLeaderInitiator leader = first.leader ? here : there;
      RecordingCandidate follower = first.leader ? second : first;
      leader.stop();
      await().atMost(PROMPTLY).until(() -> follower.leader);
    } finally {
      here.stop();
      there.stop();
    }
  }

  @Test
  void badArgumentsAreRejectedWithTheFix() {
    assertThatThrownBy(() -> new BatonLockRegistry(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("LockClient");
    assertThatThrownBy(() -> new BatonLockRegistry(client, null, LockOptions.defaults()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"\"");
    assertThatThrownBy(() -> new BatonLockRegistry(client, "p/", null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LockOptions.defaults()");
    assertThatThrownBy(() -> registry.obtain(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not be null");
  }

  private static LockRegistryLeaderInitiator initiator(BatonLockRegistry registry, RecordingCandidate candidate) {
    LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(registry, candidate);
    initiator.setHeartBeatMillis(100);
    initiator.setBusyWaitMillis(50);
    return initiator;
  }

  private static <T> T inOtherThread(Callable<T> call) throws Exception {
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      return thread.submit(call).get();
    } finally {
      thread.shutdownNow();
    }
  }

  /** A candidate that records whether it leads now. */
  private static final class RecordingCandidate extends DefaultCandidate {
    private volatile boolean leader;

    RecordingCandidate(String id, String role) {
      super(id, role);
    }

    @Override
    public void onGranted(Context ctx) {
      leader = true;
    }

    @Override
    public void onRevoked(Context ctx) {
      leader = false;
    }
  }
}
