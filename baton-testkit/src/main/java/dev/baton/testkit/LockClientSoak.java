package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A service that runs for weeks and locks one key per order, compressed into a minute: thousands of distinct keys,
 * uncontended, contended by two clients, timed out and interrupted. Afterwards the store holds what it held before
 * (keys or nodes under the prefix, server-side subscriptions and watchers), within the bound the backend states for
 * a released key to leave nothing behind, and the clients keep no state for any key; once closed they leave no
 * thread. A backend's soak test extends this class and says how to reach its store and how to count what it holds.
 */
public abstract class LockClientSoak {
  /** A short ttl, so that what the store expires by itself goes within a few seconds. */
  protected static final Duration TTL = Duration.ofSeconds(1);
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration TIMED_OUT_WAIT = Duration.ofMillis(20);
  /**
   * Threads that the JVM, JUnit, Awaitility, an in-process server and the store libraries start and keep for the
   * process, not per client (the JDK's HTTP keep-alive timer serves a soak test's own reads of a server's metrics).
   */
  private static final List<String> NOT_THE_CLIENTS =
      List.of("junit-", "ForkJoinPool", "Attach Listener", "process reaper", "Common-Cleaner", "surefire-",
          "Thread-", "globalEventExecutor", "grpc-", "ObjectCleanerThread", "lettuce-timer", "awaitility",
          "NIOWorkerThread", "Keep-Alive-Timer");

  private final String run = UUID.randomUUID().toString().substring(0, 8);

  /** The factory the soak makes its two clients with. */
  protected abstract Class<? extends LockClientFactory> factoryClass();

  /** Where the store is, as the factory expects it. */
  protected abstract String target();

  /**
   * What the store holds for Baton now, by kind: for example {@code keys} under the prefix, {@code channels} with a
   * subscriber, {@code watchers}. Read from the server, not from a client.
   */
  protected abstract Map<String, Long> storeInventory();

  /** How long after its last release a key may leave something at the store: the bound the README states. */
  protected abstract Duration leftoverBound();

  /** How many distinct keys each phase uses; a slower store may use fewer. */
  protected int uncontendedKeys() {
    return 2_000;
  }

  @Test
  @Timeout(180)
  void thousandsOfKeysLeaveNothingBehind() throws Exception {
    Map<String, Long> storeBefore = storeInventory();
    Set<Thread> threadsBefore = Set.copyOf(Thread.getAllStackTraces().keySet());
    LockOptions options = LockOptions.builder().ttl(TTL).waitTime(WAIT).build();
    LockClient first = connect();
    LockClient second = connect();
    try {
      uncontended(first, options);
      contended(first, second, options);
      timedOut(first, second, options);
      interrupted(first, second, options);
      assertThat(first.keysInUse()).as("keys the first client keeps state for").isZero();
      assertThat(second.keysInUse()).as("keys the second client keeps state for").isZero();
      await("the store back to what it held before, within the stated bound")
          .atMost(leftoverBound().plusSeconds(5))
          .untilAsserted(() -> assertThat(storeInventory()).isEqualTo(storeBefore));
    } finally {
      first.close();
      second.close();
    }
    await("the clients' threads gone after close").atMost(WAIT)
        .untilAsserted(() -> assertThat(newThreads(threadsBefore)).isEmpty());
  }

  /** Each key once, through a lease or the {@link java.util.concurrent.locks.Lock} view, one after another. */
  private void uncontended(LockClient client, LockOptions options) throws InterruptedException {
    for (int i = 0; i < uncontendedKeys(); i++) {
      DistributedLock lock = client.lock(key("uncontended", i), options);
      if (i % 2 == 0) {
        try (Lease lease = lock.acquire()) {
          assertThat(lease.isHeld()).isTrue();
        }
      } else {
        lock.lock();
        lock.unlock();
      }
    }
  }

  /** Two clients, two threads each, taking turns on each key; the keys run four at a time. */
  private void contended(LockClient first, LockClient second, LockOptions options) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(8);
    AtomicInteger holds = new AtomicInteger();
    try {
      List<Future<?>> turns = new ArrayList<>();
      for (int i = 0; i < uncontendedKeys() / 10; i++) {
        String key = key("contended", i);
        for (LockClient client : List.of(first, second, first, second)) {
          turns.add(threads.submit(() -> {
            try (Lease lease = client.lock(key, options).acquire()) {
              holds.incrementAndGet();
            }
            return null;
          }));
        }
        if (turns.size() >= 16) {
          awaitAll(turns);
        }
      }
      awaitAll(turns);
    } finally {
      threads.shutdownNow();
    }
    assertThat(holds.get()).isEqualTo(uncontendedKeys() / 10 * 4);
  }

  /** A key held by one client; the other waits a moment, gives up, and must leave nothing at the store. */
  private void timedOut(LockClient holder, LockClient waiter, LockOptions options) throws InterruptedException {
    for (int i = 0; i < uncontendedKeys() / 20; i++) {
      String key = key("timed-out", i);
      try (Lease held = holder.lock(key, options).acquire()) {
        DistributedLock other = waiter.lock(key, options.withWaitTime(TIMED_OUT_WAIT));
        assertThatThrownBy(other::acquire).isInstanceOf(LockTimeoutException.class);
        assertThat(other.tryAcquire()).isEmpty();
      }
    }
  }

  /** A key held by one client; the other's unbounded wait is cancelled, which interrupts it. */
  private void interrupted(LockClient holder, LockClient waiter, LockOptions options) throws Exception {
    for (int i = 0; i < uncontendedKeys() / 40; i++) {
      String key = key("interrupted", i);
      try (Lease held = holder.lock(key, options).acquire()) {
        CompletableFuture<Lease> waiting = waiter.lock(key, options.withWaitTime(null)).acquireAsync();
        await("the waiter waiting").atMost(WAIT).until(() -> waiter.keysInUse() == 1);
        waiting.cancel(true);
      }
    }
    await("every cancelled waiter done").atMost(WAIT).until(() -> waiter.keysInUse() == 0);
  }

  private LockClient connect() {
    try {
      return factoryClass().getDeclaredConstructor().newInstance().connect(target());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(factoryClass().getName() + " needs a public no-argument constructor.", e);
    }
  }

  private String key(String phase, int i) {
    return "soak/" + run + "/" + phase + "/order-" + i;
  }

  private static void awaitAll(List<Future<?>> futures) throws Exception {
    for (Future<?> future : futures) {
      future.get(WAIT.toMillis() * 2, TimeUnit.MILLISECONDS);
    }
    futures.clear();
  }

  private static List<String> newThreads(Set<Thread> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> !before.contains(thread))
        .map(Thread::getName)
        .filter(name -> NOT_THE_CLIENTS.stream().noneMatch(name::startsWith))
        .toList();
  }
}
